import Clocks
import Foundation
import Locking
import Testing
@testable import StateDeck
@testable import StateDeckNotifications

/// Notifications decided for one target within its window go to it as one message, at the
/// window's end on the notifier's clock; kept in the ledger from their decision, so a restart
/// while a window is open loses none and tells none twice.
@Suite(.stopsDecks) struct NotifierGatheringTests {
    typealias RecordingTarget = NotifierTests.RecordingTarget
    typealias MemoryLedger = NotifierTests.MemoryLedger

    /// Panels `P0`… (ids `p0`…), each loaded once and never again: the tests push their states.
    static func deck(panels count: Int) async -> TestDeck {
        let test = await TestDeck {
            for index in 0..<count {
                Panel("p\(index)", title: "P\(index)") { .one }.minimumLoadingTime(.zero)
            }
        }
        await test.deck.start()
        await test.until("p\(count - 1)") { $0.phase == .loaded }
        return test
    }

    /// A notifier telling each failed load of every panel of `test` to each of `targets`, entry
    /// by entry, gathering within `gather`.
    static func notifier(_ test: TestDeck, panels count: Int, _ targets: [any NotificationTarget], gather: Duration = .seconds(10),
                         ledger: MemoryLedger? = nil, log: NotificationLog = NotificationLog()) async -> Notifier {
        let clock = test.clock
        let rule = NotifyRule(failures: 1).gathering(gather)
        let subscriptions = (0..<count).flatMap { index in
            targets.map { Notifier.Subscription(panel: "p\(index)", rule: rule, target: $0) }
        }
        let notifier = Notifier(subscriptions, ledger: ledger, log: log,
                                now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await notifier.follow(test.deck)
        return notifier
    }

    /// Pushes `state` to panel `index` at `offset`, and waits for the notifier to hear it.
    static func push(_ state: ViewState, _ index: Int, at offset: Duration, _ test: TestDeck, _ notifier: Notifier) async throws {
        await test.advance(to: offset)
        let heard = await notifier.handledChanges
        try await test.deck.push(state, panel: "p\(index)")
        await test.eventually { await notifier.handledChanges > heard ? true : nil }
    }

    @Test func aSingleFailureGoesOutAloneAtItsWindowsEndExactly() async throws {
        let test = await Self.deck(panels: 1)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: 1, [target])
        defer { Task { await notifier.stop() } }
        try await Self.push(.error(.server), 0, at: .seconds(5), test, notifier)
        await test.advance(to: .milliseconds(14_999))
        await test.settle()
        #expect(target.sent.all.isEmpty, "its window is open")
        await test.advance(to: .seconds(15))
        let sent = await test.eventually { target.sent.all.first }
        #expect(sent?.message == "P0 is down: \(ErrorKind.serverError.title)", "as it is told without gathering")
        #expect(sent?.at == TestDeck.date(at: .seconds(5)), "decided at the failure")
        #expect(target.gathered.all.isEmpty)
    }

    @Test func aStormOf200FailuresIn3SecondsIsOneMessagePerTarget() async throws {
        let test = await Self.deck(panels: 200)
        let ledger = MemoryLedger()
        let chat = RecordingTarget(name: "chat"), pager = RecordingTarget(name: "pager")
        let notifier = await Self.notifier(test, panels: 200, [chat, pager], ledger: ledger)
        defer { Task { await notifier.stop() } }
        for index in 0..<200 {
            try await Self.push(.error(.server), index, at: .milliseconds(15 * index), test, notifier)
        }
        #expect(ledger.pending.current.count == 400, "each kept as it is decided, before its window ends")
        await test.advance(to: .milliseconds(9_999))
        await test.settle()
        #expect(chat.gathered.all.isEmpty && pager.gathered.all.isEmpty)
        await test.advance(to: .seconds(10))
        let told = await test.eventually { chat.gathered.all.count + pager.gathered.all.count == 2 ? chat.gathered.all : nil }
        #expect(pager.gathered.all.count == 1 && chat.sent.all.isEmpty && pager.sent.all.isEmpty)
        let message = try #require(told?.first)
        #expect(message.event == .failure)
        #expect(message.count == 200)
        #expect(message.message == "200 panels down: P0, P1, P2, and 197 more")
        #expect(message.at == TestDeck.date(at: .seconds(10)))
        #expect(message.notifications.map(\.panel) == (0..<200).map { "p\($0)" }, "in the order decided")
        #expect(message.notifications[199].at == TestDeck.date(at: .milliseconds(2_985)))
        #expect(pager.gathered.all.first?.notifications.map(\.decided) == message.notifications.map(\.decided))
        await test.eventually { ledger.pending.current.isEmpty ? true : nil }
    }

    @Test func recoveriesGatherTheSameWay() async throws {
        let test = await Self.deck(panels: 3)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: 3, [target])
        defer { Task { await notifier.stop() } }
        for index in 0..<3 { try await Self.push(.error(.server), index, at: .seconds(index), test, notifier) }
        await test.advance(to: .seconds(10))
        await test.eventually { target.gathered.all.count == 1 ? true : nil }
        for index in 0..<3 { try await Self.push(.loaded(.two), index, at: .seconds(60 + index), test, notifier) }
        await test.advance(to: .milliseconds(69_999))
        await test.settle()
        #expect(target.gathered.all.count == 1)
        await test.advance(to: .seconds(70))
        let recovered = await test.eventually { target.gathered.all.count == 2 ? target.gathered.all.last : nil }
        #expect(recovered?.event == .recovery)
        #expect(recovered?.message == "3 panels up again: P0, P1, P2")
        #expect(recovered?.notifications.map(\.downSeconds) == [60, 60, 60])
    }

    @Test func aFailureAndItsRecoveryInOneWindowAreOneNotificationInTheMessage() async throws {
        let test = await Self.deck(panels: 2)
        let ledger = MemoryLedger()
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: 2, [target], ledger: ledger)
        defer { Task { await notifier.stop() } }
        try await Self.push(.error(.server), 0, at: .zero, test, notifier)
        try await Self.push(.loaded(.two), 0, at: .seconds(2), test, notifier)
        try await Self.push(.error(.server), 1, at: .seconds(3), test, notifier)
        #expect(ledger.pending.current.count == 2, "the recovery kept in the failure's place")
        await test.advance(to: .seconds(10))
        let message = await test.eventually { target.gathered.all.first }
        #expect(message?.event == .mixed)
        #expect(message?.notifications.map(\.message) == [
            "P0 was down for 2 s (\(ErrorKind.serverError.title)) and is up again", "P1 is down: \(ErrorKind.serverError.title)",
        ])
        #expect(message?.message == "1 panel down: P1; 1 up again: P0")
        await test.eventually { ledger.pending.current.isEmpty ? true : nil }
    }

    @Test func withGatheringOffEachIsSentAtOnce() async throws {
        let test = await Self.deck(panels: 3)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: 3, [target], gather: .zero)
        defer { Task { await notifier.stop() } }
        for index in 0..<3 { try await Self.push(.error(.server), index, at: .zero, test, notifier) }
        let sent = await test.eventually { target.sent.all.count == 3 ? target.sent.all : nil }
        #expect(Set(sent?.map(\.panel) ?? []) == ["p0", "p1", "p2"])
        #expect(target.gathered.all.isEmpty)
    }

    /// Entries of different panels naming the same target gather; another target apart.
    @Test func entriesGatherByTheTargetsAddressNotByPanel() async throws {
        let test = await Self.deck(panels: 3)
        let first = RecordingTarget(name: "hook", address: "POST https://hooks.example/a")
        let same = RecordingTarget(name: "hook", address: "POST https://hooks.example/a")
        let other = RecordingTarget(name: "hook", address: "POST https://hooks.example/b")
        let clock = test.clock
        let rule = NotifyRule(failures: 1)
        let notifier = Notifier(
            [Notifier.Subscription(panel: "p0", rule: rule, target: first),
             Notifier.Subscription(panel: "p1", rule: rule, target: same),
             Notifier.Subscription(panel: "p2", rule: rule, target: other)],
            ledger: nil, now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await notifier.follow(test.deck)
        defer { Task { await notifier.stop() } }
        for index in 0..<3 { try await Self.push(.error(.server), index, at: .zero, test, notifier) }
        await test.advance(to: .seconds(10))
        let gathered = await test.eventually { first.gathered.all.first }
        #expect(gathered?.panels == ["p0", "p1"], "sent through the first entry's target")
        #expect(same.gathered.all.isEmpty && same.sent.all.isEmpty)
        #expect(await test.eventually { other.sent.all.first }?.panel == "p2")
    }

    @Test func aRestartWhileAWindowIsOpenDeliversItsNotificationsGatheredAfterOnce() async throws {
        let ledger = MemoryLedger()
        do {
            let test = await Self.deck(panels: 3)
            let before = RecordingTarget()
            let notifier = await Self.notifier(test, panels: 3, [before], ledger: ledger)
            for index in 0..<3 { try await Self.push(.error(.server), index, at: .seconds(index), test, notifier) }
            await test.advance(to: .seconds(5))
            await test.deck.stop()
            await notifier.stop()
            #expect(before.gathered.all.isEmpty && before.sent.all.isEmpty, "stopped with its window open")
        }
        #expect(ledger.pending.current.count == 3)

        let reopened = ledger.reopened()
        let test = await Self.deck(panels: 3)
        let after = RecordingTarget()
        let notifier = await Self.notifier(test, panels: 3, [after], ledger: reopened)
        await test.settle()
        #expect(after.gathered.all.isEmpty, "a window opened at the start")
        await test.advance(to: .seconds(10))
        let message = await test.eventually { after.gathered.all.first }
        #expect(message?.panels == ["p0", "p1", "p2"])
        #expect(message?.notifications.map(\.at) == (0..<3).map { TestDeck.date(at: .seconds($0)) }, "as decided before")
        await test.eventually { reopened.pending.current.isEmpty ? true : nil }
        await notifier.stop()

        let again = RecordingTarget()
        let third = await Self.notifier(test, panels: 3, [again], ledger: reopened.reopened())
        defer { Task { await third.stop() } }
        await test.advance(to: .seconds(30))
        await test.settle()
        #expect(again.gathered.all.isEmpty && again.sent.all.isEmpty, "nothing told twice")
        #expect(after.gathered.all.count == 1)
    }

    /// An edited deck file replaces the notifier: what it still collected, for the entries and
    /// the page, goes to the next one.
    @Test func theNextNotifierOfTheSameRunTakesUpTheWindowsLeftOpen() async throws {
        let ledger = MemoryLedger()
        let test = await Self.deck(panels: 2)
        let target = RecordingTarget(), page = RecordingTarget(name: "page")
        let clock = test.clock
        func subscriptions() -> [Notifier.Subscription] {
            (0..<2).flatMap { index in
                [Notifier.Subscription(panel: "p\(index)", rule: NotifyRule(failures: 1), target: target),
                 .page(panel: "p\(index)", rule: NotifyRule(failures: 1), target: page)]
            }
        }
        let first = Notifier(subscriptions(), ledger: ledger,
                             now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await first.follow(test.deck)
        for index in 0..<2 { try await Self.push(.error(.server), index, at: .seconds(index), test, first) }
        let carried = await first.stop()
        #expect(Set(carried.map(\.key)) == Set(subscriptions().map(\.key)))
        #expect(ledger.pending.current.count == 2, "the page's are not kept")
        let next = Notifier(
            subscriptions(),
            ledger: ledger, carrying: carried,
            now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await next.follow(test.deck)
        defer { Task { await next.stop() } }
        await test.advance(to: .seconds(11))
        let message = await test.eventually { target.gathered.all.first }
        #expect(message?.panels == ["p0", "p1"])
        #expect(await test.eventually { page.gathered.all.first }?.panels == ["p0", "p1"])
        await test.eventually { ledger.pending.current.isEmpty ? true : nil }
        await test.settle()
        #expect(target.gathered.all.count == 1 && page.gathered.all.count == 1)
        #expect(ledger.pending.current.isEmpty, "nor were they kept when taken up")
    }
}
