import Clocks
import Foundation
import Locking
import Testing
import TestSupport
@testable import StateDeck
@testable import StateDeckNotifications

extension DeckNotification {
    /// As the notifier decided it, before sending it gave it its delivery's id.
    var decided: DeckNotification {
        var decided = self
        decided.id = nil
        return decided
    }
}

/// The notifier on a deck on a test clock: what is sent, when, once.
@Suite(.stopsDecks) struct NotifierTests {
    /// Keeps what it is sent: notifications told alone in `sent`, gathered messages in `gathered`.
    final class RecordingTarget: NotificationTarget {
        let name: String
        let address: String
        let sent = Recorder<DeckNotification>()
        let gathered = Recorder<GatheredNotification>()

        init(name: String = "recorder", address: String? = nil) {
            self.name = name
            self.address = address ?? name
        }

        func deliver(_ notification: DeckNotification) async throws {
            sent.append(notification)
        }

        func deliver(_ gathered: GatheredNotification) async throws {
            self.gathered.append(gathered)
        }
    }

    /// Takes each notification and never answers until the test opens its gate, then gives up:
    /// a receiver that is down when the process stops. Notes what `ledger` had still to deliver
    /// as each attempt began.
    final class StalledTarget: NotificationTarget {
        struct GaveUp: Error {}
        let name = "stalled"
        let attempts = Recorder<DeckNotification>()
        let pendingAtAttempt = Recorder<[DeckNotification]>()
        let gate = Gate()
        let ledger: MemoryLedger?

        init(ledger: MemoryLedger? = nil) {
            self.ledger = ledger
        }

        func deliver(_ notification: DeckNotification) async throws {
            pendingAtAttempt.append(ledger?.pending.current.map(\.notification) ?? [])
            attempts.append(notification)
            await gate.wait()
            throw GaveUp()
        }

        func deliver(_ gathered: GatheredNotification) async throws {
            Issue.record("the tests of a stalled target gather nothing")
        }
    }

    /// Keeps outages and deliveries not done in memory, as the history store keeps them on disk;
    /// ``reopened()`` reads them back as the next run does.
    final class MemoryLedger: NotificationLedger {
        let kept: Locked<[String: OutageWatch]>
        let pending: Locked<[PendingDelivery]>
        private let left: Locked<[PendingDelivery]>

        init(kept: [String: OutageWatch] = [:], leftByEarlierRun left: [PendingDelivery] = []) {
            self.kept = Locked(kept)
            pending = Locked(left)
            self.left = Locked(left)
        }

        /// The ledger of the next run: every outage, and every delivery not finished, left to it.
        func reopened() -> MemoryLedger {
            MemoryLedger(kept: kept.current, leftByEarlierRun: pending.current)
        }

        func outages() -> [String: OutageWatch] { kept.current }

        func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?,
                  replacing replaced: PendingDelivery.ID?) {
            kept.withLock { $0[key] = watch }
            pending.withLock { pending in
                pending.removeAll { $0.id == replaced }
                if let delivery { pending.append(delivery) }
            }
        }

        func finished(_ deliveries: [PendingDelivery.ID]) {
            let done = Set(deliveries)
            pending.withLock { $0.removeAll { done.contains($0.id) } }
        }

        func forget(keysOutside keys: Set<String>) {
            kept.withLock { $0 = $0.filter { keys.contains($0.key) } }
            pending.withLock { $0.removeAll { !keys.contains($0.key) } }
        }

        /// Kept in memory as the keep returns.
        func hasKept(_ deliveries: [PendingDelivery.ID]) -> Bool { true }

        /// Deliveries claimed in this ledger's run (the next run's ledger claims them again).
        let claimed = Locked<Set<PendingDelivery.ID>>([])

        func claim(_ deliveries: [PendingDelivery.ID]) -> Set<PendingDelivery.ID>? {
            let owed = Set(pending.current.map(\.id))
            return claimed.withLock { claimed in
                let mine = Set(deliveries).filter { owed.contains($0) && !claimed.contains($0) }
                claimed.formUnion(mine)
                return mine
            }
        }

        func takeUndelivered() -> [PendingDelivery] {
            let undone = Set(pending.current.map(\.id))
            return left.withLock { left in
                defer { left = [] }
                return left.filter { undone.contains($0.id) }
            }
        }
    }

    /// A panel "p" ("API") refreshed every 10 s, its loads scripted, without retries.
    static func deck(_ loader: ScriptedLoader, clock: TestClock<Duration> = TestClock(),
                     flapping: FlappingRule? = FlappingRule()) async -> TestDeck {
        await TestDeck(clock: clock, flapping: flapping) {
            Panel("p", title: "API") { try loader.load() }
                .refresh(every: .seconds(10))
                .retry(.none)
                .minimumLoadingTime(.zero)
        }
    }

    /// A notifier of panel "p"'s first entry, by `rule` gathering within `gather` (off unless the
    /// test is about gathering).
    static func notifier(_ test: TestDeck, _ rule: NotifyRule, _ target: any NotificationTarget, ledger: MemoryLedger? = nil,
                         gather: Duration = .zero) async -> Notifier {
        let clock = test.clock
        let notifier = Notifier(
            [Notifier.Subscription(panel: "p", rule: rule.gathering(gather), target: target)], ledger: ledger,
            now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await notifier.follow(test.deck)
        return notifier
    }

    /// The key of the entry ``notifier(_:_:_:ledger:gather:)`` makes of `rule` and `target`.
    static func key(_ rule: NotifyRule, _ target: any NotificationTarget, gather: Duration = .zero) -> String {
        Notifier.Subscription(panel: "p", rule: rule.gathering(gather), target: target).key
    }

    @Test func theThirdFailedLoadInARowIsToldOnceAndTheRecoveryOnceWithTheTimeDown() async {
        let loader = ScriptedLoader(.failure(.server), .failure(.server), .failure(.server), .failure(.server), .success(.one))
        let test = await Self.deck(loader)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, NotifyRule(failures: 3), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { $0.phase == .error && !$0.isLoading }
        for second in [10, 20, 30, 40] { await test.advanceThroughLoad(to: .seconds(second)) }
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

    /// With `successes: 2` a good result alone tells nothing; the second in a row does, even when it
    /// only measured (it showed what the first did), and the time down ends at the first of them.
    @Test func aRecoveryIsToldAfterItsSuccessesInARow() async {
        let loader = ScriptedLoader(.failure(.server), .success(.one), .failure(.server), .success(.one), .success(.one))
        let test = await Self.deck(loader)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, NotifyRule(failures: 1, successes: 2), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { $0.phase == .error && !$0.isLoading }
        await test.advance(to: .seconds(10))
        await test.until { $0.phase == .loaded }
        await test.advance(to: .seconds(20))
        await test.until { $0.phase == .error && !$0.isLoading }
        await test.advance(to: .seconds(30))
        await test.until { $0.phase == .loaded }
        await test.settle()
        #expect(target.sent.all.map(\.event) == [.failure], "one good result of two, twice")
        await test.advance(to: .seconds(40))
        let sent = await test.eventually { target.sent.all.count == 2 ? target.sent.all : nil }
        #expect(sent?.map(\.event) == [.failure, .recovery])
        #expect(sent?.last?.downSeconds == 30, "from the first failure to the first of the good results in a row")
        #expect(sent?.last?.at == TestDeck.date(at: .seconds(30)))
    }

    @Test func aDismissedCardNeitherEndsTheOutageNorTellsARecovery() async throws {
        let loader = ScriptedLoader(.success(.one), .failure(.server), .success(.two))
        let test = await Self.deck(loader)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { $0.phase == .loaded }
        await test.advance(to: .seconds(10))
        await test.until { $0.phase == .error && !$0.isLoading }
        _ = await test.eventually { target.sent.all.count == 1 ? true : nil }
        try await test.deck.recover(panel: "p", option: RecoveryOption.dismissId)
        #expect(try await test.deck.panelState("p").stale)
        await test.advance(to: .seconds(20))
        await test.until { $0.phase == .loaded && !$0.stale }
        let sent = await test.eventually { target.sent.all.count == 2 ? target.sent.all : nil }
        #expect(sent?.map(\.event) == [.failure, .recovery])
        #expect(sent?.last?.at == TestDeck.date(at: .seconds(20)), "told at the good load, not at the dismissal")
        #expect(sent?.last?.downSeconds == 10)
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
        #expect(ledger.kept.current[Self.key(NotifyRule(failures: 1), before)]?.isTold == true)

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
        #expect(ledger.kept.current.isEmpty)
    }

    @Test func thePagesDeliveriesAreNotKeptForTheNextRunButItsOutageIs() async {
        let ledger = MemoryLedger()
        let page = StalledTarget(ledger: ledger)
        let loader = ScriptedLoader(.failure(.server))
        let test = await Self.deck(loader)
        let clock = test.clock
        let notifier = Notifier(
            [.page(panel: "p", rule: NotifyRule(failures: 1).gathering(.zero), target: page)], ledger: ledger,
            now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await notifier.follow(test.deck)
        defer { page.gate.open(); Task { await notifier.stop() } }
        await test.deck.start()
        let pending = await test.eventually { page.pendingAtAttempt.all.first }
        #expect(pending?.isEmpty == true, "nothing kept to deliver while the page is told")
        #expect(ledger.kept.current["p#page"]?.isTold == true)
    }

    @Test func onlyErrorsAndTheLoadsEndingAnOutageAreQueuedFromTheDeck() async {
        let loader = ScriptedLoader(.success(.one), .success(.two), .failure(.server), .success(.one), .success(.two))
        let test = await Self.deck(loader)
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { !$0.isLoading && $0.phase != .initial }
        for second in [10, 20, 30, 40] { await test.advanceThroughLoad(to: .seconds(second)) }
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
        let entries = [Notifier.Subscription(panel: "a", rule: .failures(1), target: chat),
                       Notifier.Subscription(panel: "a", rule: .down(.seconds(60)), target: chat)]
        #expect(subscriptions.map(\.key) == entries.map(\.key) + ["a#page", "b#page"])
        #expect(subscriptions.map(\.rule) == [.failures(1), .down(.seconds(60)), .failures(1), NotifyRule()])
        #expect(subscriptions.map(\.target.name) == ["chat", "chat", "page", "page"])
        #expect(Notifier.Subscription.all(of: deck).map(\.key) == entries.map(\.key), "without the page")
    }

    @Test func aFailureStillBeingDeliveredAtTheStopIsDeliveredAfterTheRestartAndNotDecidedAgain() async throws {
        let ledger = MemoryLedger()
        let stalled = StalledTarget(ledger: ledger)
        defer { stalled.gate.open() }
        do {
            let test = await Self.deck(ScriptedLoader(.failure(.server)))
            let notifier = await Self.notifier(test, NotifyRule(failures: 1), stalled, ledger: ledger)
            await test.deck.start()
            await test.eventually { stalled.attempts.all.count == 1 ? true : nil }
            await test.deck.stop()
            await notifier.stop()
        }
        let left = try #require(ledger.pending.current.first)
        #expect(left.notification.event == .failure)
        #expect(stalled.pendingAtAttempt.all == [[left.notification]], "kept before it was sent")
        #expect(ledger.kept.current[Self.key(NotifyRule(failures: 1), stalled)]?.isTold == true,
                "kept with the outage that told it")

        let reopened = ledger.reopened()
        let target = RecordingTarget(address: stalled.address)
        let loader = ScriptedLoader(.failure(.server), .failure(.server), .success(.one))
        let test = await Self.deck(loader)
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), target, ledger: reopened)
        defer { Task { await notifier.stop() } }
        let delivered = await test.eventually { target.sent.all.first }
        #expect(delivered?.decided == left.notification, "the earlier run's notification, as it was decided")
        #expect(delivered?.id == left.id.uuidString.lowercased(), "under the id it was kept with, which a receiver drops a repeat by")
        await test.eventually { reopened.pending.current.isEmpty ? true : nil }
        await test.deck.start()
        await test.until { $0.phase == .error && !$0.isLoading }
        for second in [10, 20] { await test.advanceThroughLoad(to: .seconds(second)) }
        await test.until { $0.phase == .loaded }
        let sent = await test.eventually { target.sent.all.count == 2 ? target.sent.all : nil }
        #expect(sent?.map(\.event) == [.failure, .recovery], "the failure once, from the earlier run")
        #expect(sent?.last?.downSince == left.notification.downSince)
        #expect(sent?.last?.downSeconds == 20)
        await test.settle()
        #expect(target.sent.all.count == 2)
        #expect(reopened.pending.current.isEmpty)
    }

    @Test func aDeliveryLeftForAnEntryTheDeckNoLongerHasIsDropped() async {
        let target = RecordingTarget()
        func left(_ panel: String) -> PendingDelivery {
            PendingDelivery(key: Notifier.Subscription(panel: panel, rule: NotifyRule(failures: 1).gathering(.zero), target: target).key,
                            notification: DeckNotification(
                event: .failure, panel: panel, title: panel, group: nil, error: nil,
                downSince: TestDeck.origin, at: TestDeck.origin))
        }
        let ledger = MemoryLedger(leftByEarlierRun: [left("gone"), left("p")])
        let test = await Self.deck(ScriptedLoader(.success(.one)))
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), target, ledger: ledger)
        defer { Task { await notifier.stop() } }
        let sent = await test.eventually { target.sent.all.isEmpty ? nil : target.sent.all }
        #expect(sent?.map(\.panel) == ["p"])
        await test.eventually { ledger.pending.current.isEmpty ? true : nil }
        await test.settle()
        #expect(target.sent.all.count == 1)
    }

    /// A deck file edit makes a new notifier on the same ledger while the first still delivers.
    @Test func theNextNotifierOfTheSameRunLeavesDeliveriesUnderWayToTheFirst() async {
        let ledger = MemoryLedger()
        let stalled = StalledTarget()
        defer { stalled.gate.open() }
        let loader = ScriptedLoader(.failure(.server))
        let test = await Self.deck(loader)
        let first = await Self.notifier(test, NotifyRule(failures: 1), stalled, ledger: ledger)
        await test.deck.start()
        await test.eventually { stalled.attempts.all.count == 1 ? true : nil }
        await first.stop()
        let target = RecordingTarget(address: stalled.address)
        let next = await Self.notifier(test, NotifyRule(failures: 1), target, ledger: ledger)
        defer { Task { await next.stop() } }
        #expect(await next.outages[Self.key(NotifyRule(failures: 1), stalled)]?.isTold == true)
        await test.advance(to: .seconds(10))
        await test.eventually { loader.callCount == 2 ? true : nil }
        await test.until { $0.phase == .error && !$0.isLoading }
        await test.settle()
        #expect(target.sent.all.isEmpty, "the failure was told, and is still being delivered by the first")
        #expect(ledger.pending.current.count == 1)
    }

    /// A delivery an earlier run left, which another notifier (another process whose memory held
    /// it too) claimed first: this one sends nothing of it and leaves it owed to that one.
    @Test func aDeliveryAnotherNotifierClaimedIsLeftToIt() async throws {
        let target = RecordingTarget()
        let key = Self.key(NotifyRule(failures: 1), target)
        func left(_ title: String) -> PendingDelivery {
            PendingDelivery(key: key, notification: DeckNotification(
                event: .failure, panel: "p", title: title, group: nil, error: nil, downSince: TestDeck.origin, at: TestDeck.origin))
        }
        let (claimedElsewhere, mine) = (left("claimed elsewhere"), left("mine"))
        let ledger = MemoryLedger(leftByEarlierRun: [claimedElsewhere, mine])
        ledger.claimed.withLock { $0 = [claimedElsewhere.id] }
        let test = await Self.deck(ScriptedLoader(.success(.one)))
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), target, ledger: ledger)
        defer { Task { await notifier.stop() } }
        let sent = await test.eventually { target.sent.all.isEmpty ? nil : target.sent.all }
        #expect(sent?.map(\.title) == ["mine"])
        await test.eventually { ledger.pending.current.count == 1 ? true : nil }
        await test.settle()
        #expect(target.sent.all.count == 1)
        #expect(ledger.pending.current.map(\.id) == [claimedElsewhere.id], "owed by the notifier that claimed it")
    }

    @Test func aStopWaitsForDeliveriesUnderWayAtMostItsLimit() async {
        let ledger = MemoryLedger()
        let stalled = StalledTarget()
        let test = await Self.deck(ScriptedLoader(.failure(.server)))
        let notifier = await Self.notifier(test, NotifyRule(failures: 1), stalled, ledger: ledger)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.eventually { stalled.attempts.all.count == 1 ? true : nil }
        await test.deck.stop()
        let waited = Task { await notifier.finishDeliveries(within: .milliseconds(50)) }
        await test.advance(to: .milliseconds(50))
        await waited.value
        #expect(ledger.pending.current.count == 1, "still under way: left to the next run")

        let done = Locked(false)
        Task {
            await notifier.finishDeliveries(within: .seconds(60))
            done.withLock { $0 = true }
        }
        stalled.gate.open()
        await test.eventually {
            await test.clock.advance(by: .milliseconds(10))
            return done.current ? true : nil
        }
        #expect(ledger.pending.current.isEmpty)
        #expect(test.clock.now < TestClock<Duration>.Instant(offset: .seconds(60)), "it returned once the delivery ended")
    }
}
