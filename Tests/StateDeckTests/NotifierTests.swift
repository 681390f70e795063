import Clocks
import Foundation
import Locking
import Testing
@testable import StateDeck
@testable import StateDeckNotifications

/// The notifier on a deck on a test clock: what is sent, when, once.
@Suite(.stopsDecks) struct NotifierTests {
    /// Keeps what it is sent.
    final class RecordingTarget: NotificationTarget {
        let name: String
        let sent = Recorder<DeckNotification>()

        init(name: String = "recorder") {
            self.name = name
        }

        func deliver(_ notification: DeckNotification) async throws {
            sent.append(notification)
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

    static func notifier(_ test: TestDeck, _ rule: NotifyRule, _ target: RecordingTarget, ledger: OutageTable? = nil) async -> Notifier {
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

    @Test func timeDownIsToldWhenItPassesEvenWithAnEarlierOutagesWakeUpPending() async throws {
        let test = await TestDeck {
            Panel("p", title: "API") { .one }.minimumLoadingTime(.zero)
        }
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, .down(.seconds(15)), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { $0.phase == .loaded }
        // Down at 1 s, due at 16 s, but up again at 2 s; down again at 5 s, due at 20 s.
        for (second, state) in [(1, ViewState.error(.server)), (2, .loaded(.two)), (5, .error(.server))] {
            await test.advance(to: .seconds(second))
            try await test.deck.push(state, panel: "p")
        }
        await test.advance(to: .seconds(16))
        await test.settle()
        #expect(target.sent.all.isEmpty, "the first outage ended before its time")
        await test.advance(to: .seconds(19))
        await test.settle()
        #expect(target.sent.all.isEmpty)
        await test.advance(to: .seconds(20))
        let told = await test.eventually { target.sent.all.first }
        #expect(told?.event == .failure)
        #expect(told?.downSince == TestDeck.date(at: .seconds(5)))
        #expect(told?.at == TestDeck.date(at: .seconds(20)))
    }

    @Test func aRestartMidOutageNeitherRepeatsTheFailureNorLosesTheRecovery() async {
        let ledger = OutageTable()
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
        #expect(ledger.outages()["p#0"]?.isTold == true)

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
        #expect(ledger.outages()["p#0"] == nil)
    }

    @Test func onlyErrorsAndTheLoadsEndingAnOutageAreQueuedFromTheDeck() async {
        let loader = ScriptedLoader(.success(.one), .success(.two), .failure(.server), .success(.one), .success(.two))
        let test = await Self.deck(loader)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        for second in [10, 20, 30, 40] {
            await test.until { !$0.isLoading && $0.phase != .initial }
            await test.advance(to: .seconds(second))
        }
        await test.until { $0.phase == .loaded && $0.latestValidInfo == .two && !$0.isLoading }
        await test.eventually { target.sent.all.count == 2 ? true : nil }
        await test.settle()
        let changes = test.events.all.filter { if case .change = $0 { true } else { false } }
        #expect(changes.count >= 5, "a change for the result of each of five loads")
        #expect(await notifier.handledChanges == 2, "the error, and the load that ended it; none of the healthy loads")
        #expect(target.sent.all.map(\.event) == [.failure, .recovery])
    }

    @Test func subscriptionsAreTheEntriesThenThePageByTheFirstRuleUnlessNone() {
        let chat = RecordingTarget(name: "chat"), page = RecordingTarget(name: "page")
        let deck = Deck("Notify") {
            Panel("a", title: "A") { .one }.notify(chat, .failures(1)).notify(chat, .down(.seconds(60)))
            Panel("b", title: "B") { .one }
            Panel("c", title: "C") { .one }.notify(chat).notify(.none)
        }
        let subscriptions = Notifier.Subscription.all(of: deck, page: page)
        #expect(subscriptions.map(\.key) == ["a#0", "a#1", "a#page", "b#page"])
        #expect(subscriptions.map(\.rule) == [.failures(1), .down(.seconds(60)), .failures(1), NotifyRule()])
        #expect(subscriptions.map(\.target.name) == ["chat", "chat", "page", "page"])
        #expect(Notifier.Subscription.all(of: deck).map(\.key) == ["a#0", "a#1"], "without the page")
    }
}
