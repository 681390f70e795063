import Clocks
import Foundation
import Locking
import StateDeckNotifications
import Testing
@testable import StateDeck

/// The notifier on a deck on a test clock: what is sent, when, once.
@Suite(.stopsDecks) struct NotifierTests {
    /// Keeps what it is sent.
    final class RecordingTarget: NotificationTarget {
        let name = "recorder"
        let sent = Recorder<DeckNotification>()

        func deliver(_ notification: DeckNotification) async throws {
            sent.append(notification)
        }
    }

    /// Keeps outages in memory, as the history store keeps them on disk.
    final class MemoryLedger: NotificationLedger {
        let kept = Locked<[String: OutageWatch]>([:])

        func outages() -> [String: OutageWatch] { kept.current }

        func keep(_ watch: OutageWatch?, for key: String) {
            kept.withLock { $0[key] = watch }
        }
    }

    /// A panel "p" ("API") refreshed every 10 s, its loads scripted, without retries.
    static func deck(_ loader: ScriptedLoader, clock: TestClock<Duration> = TestClock()) async -> TestDeck {
        await TestDeck(clock: clock) {
            Panel("p", title: "API") { try loader.load() }
                .refresh(every: .seconds(10))
                .retry(.none)
                .minimumLoadingTime(.zero)
        }
    }

    static func notifier(_ test: TestDeck, _ rule: NotifyRule, _ target: RecordingTarget, ledger: MemoryLedger? = nil) async -> Notifier {
        let clock = test.clock
        let notifier = Notifier(
            [Notifier.Subscription(panel: "p", rule: rule, target: target, index: 0)], ledger: ledger,
            now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await notifier.follow(test.deck)
        return notifier
    }

    @Test func theThirdFailedLoadInARowIsToldOnceAndTheRecoveryOnceWithTheTimeDown() async {
        let loader = ScriptedLoader(.failure(.server), .failure(.server), .failure(.server), .failure(.server), .success(.one))
        let test = await Self.deck(loader)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, NotifyRule(failures: 3), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        for second in [10, 20, 30, 40] {
            await test.until { $0.phase == .error && !$0.isLoading }
            await test.advance(to: .seconds(second))
        }
        await test.until { $0.phase == .loaded }
        let sent = await test.eventually { target.sent.all.count == 2 ? target.sent.all : nil }
        #expect(sent?.map(\.event) == [.failure, .recovery])
        #expect(sent?.first?.at == TestDeck.date(at: .seconds(20)), "the third failed load")
        #expect(sent?.first?.message == "API is down: \(ErrorKind.serverError.title)")
        #expect(sent?.first?.downSince == TestDeck.date(at: .zero))
        #expect(sent?.last?.downSeconds == 40)
        #expect(sent?.last?.message == "API is up again after 40 s")
        await test.settle()
        #expect(target.sent.all.count == 2)
    }

    @Test func debugForcedErrorsNeverNotify() async throws {
        let loader = ScriptedLoader(.success(.one))
        let test = await Self.deck(loader)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { $0.phase == .loaded }
        _ = try await test.deck.debug(.error(.serverError), panel: "p")
        _ = try await test.deck.debug(.loaded(nil), panel: "p")
        await test.settle()
        #expect(target.sent.all.isEmpty)
    }

    @Test func remindersRingOnTheClockWithoutALoad() async {
        let loader = ScriptedLoader(.failure(.server))
        let test = await TestDeck {
            Panel("p", title: "API") { try loader.load() }.retry(.none).minimumLoadingTime(.zero)
        }
        let target = RecordingTarget()
        let rule = NotifyRule(failures: 1, remind: .init(every: .seconds(60), times: 2))
        let notifier = await Self.notifier(test, rule, target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.eventually { target.sent.all.count == 1 ? true : nil }
        await test.advance(to: .seconds(59))
        await test.settle()
        #expect(target.sent.all.count == 1)
        await test.advance(to: .seconds(60))
        let reminded = await test.eventually { target.sent.all.count == 2 ? target.sent.all.last : nil }
        #expect(reminded?.event == .reminder)
        #expect(reminded?.at == TestDeck.date(at: .seconds(60)))
        #expect(reminded?.message == "API is still down after 1 min: \(ErrorKind.serverError.title)")
        await test.advance(to: .seconds(120))
        await test.eventually { target.sent.all.count == 3 ? true : nil }
        await test.advance(to: .seconds(600))
        await test.settle()
        #expect(target.sent.all.map(\.event) == [.failure, .reminder, .reminder], "two at most")
    }

    @Test func aRestartMidOutageNeitherRepeatsTheFailureNorLosesTheRecovery() async {
        let ledger = MemoryLedger()
        let before = RecordingTarget()
        do {
            let loader = ScriptedLoader(.failure(.server))
            let test = await Self.deck(loader)
            let notifier = await Self.notifier(test, NotifyRule(failures: 1), before, ledger: ledger)
            await test.deck.start()
            await test.eventually { before.sent.all.count == 1 ? true : nil }
            await test.deck.stop()
            await notifier.stop()
        }
        #expect(ledger.kept.current["p#0"]?.isTold == true)

        let after = RecordingTarget()
        let loader = ScriptedLoader(.failure(.server), .success(.one))
        let test = await Self.deck(loader)
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), after, ledger: ledger)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { $0.phase == .error && !$0.isLoading }
        await test.advance(to: .seconds(10))
        await test.until { $0.phase == .loaded }
        let sent = await test.eventually { after.sent.all.isEmpty ? nil : after.sent.all }
        #expect(sent?.map(\.event) == [.recovery], "the failure was told before the restart")
        #expect(ledger.kept.current["p#0"] == nil)
    }
}
