import Clocks
import Foundation
import Locking
import Testing
import TestSupport
@testable import StateDeck
@testable import StateDeckNotifications

/// What a target that does not answer is owed: one delivery sent and one waiting per entry at
/// most, the newest truth in the waiting one, a limit per target, and nothing older than the
/// horizon sent after a restart.
@Suite(.stopsDecks) struct NotificationOutboxTests {
    typealias MemoryLedger = NotifierTests.MemoryLedger
    typealias RecordingTarget = NotifierTests.RecordingTarget

    static let error = DeckNotification.ErrorSummary(kind: "timeout", title: "Timed out", message: "No answer within 5 s.")

    /// A delivery to entry `key` of `event`, decided `at` seconds into an outage that began at 0.
    static func delivery(_ event: DeckNotification.Event, at seconds: Double, key: String = "api#0") -> PendingDelivery {
        let origin = Date(timeIntervalSince1970: 1_795_341_600)
        return PendingDelivery(key: key, notification: DeckNotification(
            event: event, panel: "api", title: "API", group: nil, error: event == .recovery ? nil : error,
            downSince: origin, at: origin.addingTimeInterval(seconds)))
    }

    /// A ledger that has kept every delivery handed to it.
    static func kept(_ deliveries: [PendingDelivery]) -> Bool { true }

    typealias Group = NotificationOutbox.Group
    typealias Message = NotificationOutbox.Message

    /// A gathering target's group, and an entry's that does not gather.
    static let hook = Group(address: "hook", window: .seconds(10), entry: nil)
    static func alone(_ key: String, address: String = "hook") -> Group {
        Group(address: address, window: .zero, entry: key)
    }

    @Test func anEntryHasOneDeliveryInTheMessageSentAndOneCollectingHoldingTheNewestTruth() throws {
        var outbox = NotificationOutbox(limit: 10)
        let failure = Self.delivery(.failure, at: 0)
        #expect(outbox.admit(failure, to: Self.hook) == .joined(failure, replacing: nil, opened: true))
        #expect(outbox.windowEnded(Self.hook, ifKept: Self.kept) == Message(group: Self.hook, deliveries: [failure]))
        let recovery = Self.delivery(.recovery, at: 60)
        #expect(outbox.admit(recovery, to: Self.hook) == .joined(recovery, replacing: nil, opened: true))
        #expect(outbox.windowEnded(Self.hook, ifKept: Self.kept) == nil, "the message before it is still being sent")
        let again = Self.delivery(.failure, at: 70)
        #expect(outbox.admit(again, to: Self.hook) == .withdrew(recovery),
                "down again before its recovery went out: the target was last told it is down, and it is")
        #expect(outbox.finished(Self.hook, ifKept: Self.kept) == nil, "nothing is owed")
        #expect(outbox.owed == 0)
        let failing = Self.delivery(.failure, at: 100)
        #expect(outbox.admit(failing, to: Self.hook) == .joined(failing, replacing: nil, opened: true))
        #expect(outbox.admit(Self.delivery(.reminder, at: 120), to: Self.hook) == .absorbed, "the failure collecting says it")
        let last = Self.delivery(.recovery, at: 180)
        guard case .joined(let folded, let replaced, _) = outbox.admit(last, to: Self.hook) else {
            Issue.record("the recovery does not join")
            return
        }
        #expect(replaced == failing.id)
        #expect(folded.id == last.id)
        #expect(folded.notification.event == .recovery)
        #expect(folded.notification.message == "API was down for 3 min (Timed out) and is up again",
                "a failure the target never got and its recovery: one message for the whole outage")
        #expect(folded.notification.error == Self.error)
        #expect(outbox.owed == 1)
        let newer = Self.delivery(.failure, at: 200)
        #expect(outbox.admit(newer, to: Self.hook) == .joined(newer, replacing: folded.id, opened: false),
                "an outage the target never heard of is over: only the new one is owed")
        #expect(outbox.windowEnded(Self.hook, ifKept: Self.kept) == Message(group: Self.hook, deliveries: [newer]))
        #expect(outbox.finished(Self.hook, ifKept: Self.kept) == nil)
        #expect(outbox.owed == 0)
        let next = Self.delivery(.failure, at: 300)
        #expect(outbox.admit(next, to: Self.hook) == .joined(next, replacing: nil, opened: true))
    }

    /// A target told "down" whose recovery still waits (it hung, or a stop took the recovery up
    /// again) is owed "up" only: an outage begun and over meanwhile, told as a whole, would take
    /// the recovery's place, and a failure after it would leave the target hearing "down" twice.
    @Test func aRecoveryTellingAWholeOutageLeavesTheRecoveryWhoseFailureWentOut() throws {
        var outbox = NotificationOutbox(limit: 10)
        let recovery = Self.delivery(.recovery, at: 60)
        #expect(outbox.admit(recovery, to: Self.hook) == .joined(recovery, replacing: nil, opened: true))
        let failure = Self.delivery(.failure, at: 100)
        let whole = PendingDelivery(key: failure.key, notification: Self.delivery(.recovery, at: 200).notification
            .tellingWholeOutage(of: failure.notification))
        #expect(outbox.admit(whole, to: Self.hook) == .absorbed, "the recovery collecting says it is up")
        #expect(outbox.admit(Self.delivery(.failure, at: 300), to: Self.hook) == .withdrew(recovery),
                "down again: the target was last told it is down")
        #expect(outbox.owed == 0)
    }

    /// A collection the ledger has not kept (its write failed) is no message yet: it goes on
    /// collecting, so a recovery decided meanwhile still tells the whole outage, and goes out
    /// once the ledger has it.
    @Test func aCollectionTheLedgerHasNotKeptGoesOnCollectingUntilItHas() throws {
        var outbox = NotificationOutbox(limit: 10)
        let failure = Self.delivery(.failure, at: 0)
        #expect(outbox.admit(failure, to: Self.hook) == .joined(failure, replacing: nil, opened: true))
        var asked: [[PendingDelivery.ID]] = []
        let held = outbox.windowEnded(Self.hook) { deliveries in
            asked.append(deliveries.map(\.id))
            return false
        }
        #expect(held == nil)
        #expect(asked == [[failure.id]])
        let recovery = Self.delivery(.recovery, at: 60)
        guard case .joined(let folded, failure.id?, false) = outbox.admit(recovery, to: Self.hook) else {
            Issue.record("the recovery does not take the failure's place")
            return
        }
        #expect(folded.notification.error == Self.error, "told as the whole outage")
        #expect(outbox.message(of: Self.hook, ifKept: Self.kept) == Message(group: Self.hook, deliveries: [folded]))
        #expect(outbox.owed == 1)
    }

    @Test func entriesOfOneGroupGoOutTogetherInTheOrderTheyJoinedAndOthersApart() {
        var outbox = NotificationOutbox(limit: 10)
        let a = Self.delivery(.failure, at: 0, key: "a#0"), b = Self.delivery(.failure, at: 1, key: "b#0")
        let c = Self.delivery(.failure, at: 2, key: "c#0")
        #expect(outbox.admit(a, to: Self.hook) == .joined(a, replacing: nil, opened: true))
        #expect(outbox.admit(b, to: Self.hook) == .joined(b, replacing: nil, opened: false))
        let slow = Group(address: "hook", window: .seconds(60), entry: nil)
        #expect(outbox.admit(c, to: slow) == .joined(c, replacing: nil, opened: true), "another window: another group")
        let aUp = Self.delivery(.recovery, at: 3, key: "a#0")
        guard case .joined(let folded, a.id?, false) = outbox.admit(aUp, to: Self.hook) else {
            Issue.record("the recovery does not take the failure's place")
            return
        }
        #expect(outbox.windowEnded(Self.hook, ifKept: Self.kept) == Message(group: Self.hook, deliveries: [folded, b]), "a's place kept")
        #expect(outbox.windowEnded(slow, ifKept: Self.kept) == Message(group: slow, deliveries: [c]))
    }

    /// A copy of the collection at each admission took a quadratic 10^10 bytes for this.
    @Test func aStormOf10000GathersInTimeLinearInItsSize() {
        var outbox = NotificationOutbox(limit: 10_000)
        let deliveries = (0..<10_000).map { Self.delivery(.failure, at: 0, key: "p\($0)#0") }
        let started = ContinuousClock.now
        for delivery in deliveries { _ = outbox.admit(delivery, to: Self.hook) }
        let message = outbox.windowEnded(Self.hook, ifKept: Self.kept)
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(message?.deliveries == deliveries)
    }

    @Test func anAddressPastItsLimitDropsWhatElseComesAndOthersGoOn() {
        var outbox = NotificationOutbox(limit: 3)
        let a = Self.delivery(.failure, at: 0, key: "a#0"), b = Self.delivery(.failure, at: 0, key: "b#0")
        #expect(outbox.admit(a, to: Self.alone("a#0")) == .joined(a, replacing: nil, opened: true))
        #expect(outbox.windowEnded(Self.alone("a#0"), ifKept: Self.kept) == Message(group: Self.alone("a#0"), deliveries: [a]))
        let aReminded = Self.delivery(.reminder, at: 10, key: "a#0")
        #expect(outbox.admit(aReminded, to: Self.alone("a#0")) == .joined(aReminded, replacing: nil, opened: true))
        #expect(outbox.windowEnded(Self.alone("a#0"), ifKept: Self.kept) == nil, "behind the one being sent")
        #expect(outbox.admit(b, to: Self.hook) == .joined(b, replacing: nil, opened: true), "gathering or not, one address")
        #expect(outbox.admit(Self.delivery(.recovery, at: 10, key: "c#0"), to: Self.hook) == .dropped)
        #expect(outbox.admit(Self.delivery(.failure, at: 0, key: "d#0"), to: Self.alone("d#0")) == .dropped)
        let elsewhere = Self.delivery(.failure, at: 0, key: "c#1")
        #expect(outbox.admit(elsewhere, to: Self.alone("c#1", address: "chat")) == .joined(elsewhere, replacing: nil, opened: true),
                "another address has a limit of its own")
        let aRecovered = Self.delivery(.recovery, at: 20, key: "a#0")
        #expect(outbox.admit(aRecovered, to: Self.alone("a#0")) == .joined(aRecovered, replacing: aReminded.id, opened: false),
                "a replacement adds nothing")
        #expect(outbox.finished(Self.alone("a#0"), ifKept: Self.kept) == Message(group: Self.alone("a#0"), deliveries: [aRecovered]),
                "two owed")
        let d = Self.delivery(.failure, at: 0, key: "d#0")
        #expect(outbox.admit(d, to: Self.hook) == .joined(d, replacing: nil, opened: false))
        #expect(outbox.admit(Self.delivery(.failure, at: 0, key: "e#0"), to: Self.hook) == .dropped, "three owed again")
        #expect(outbox.owed == 4)
    }

    /// Takes each notification and holds it until the test opens the gate: a receiver that
    /// accepts the connection and never answers.
    final class HangingTarget: NotificationTarget {
        let name = "hanging"
        let attempts = Recorder<DeckNotification>()
        let gate = Gate()

        func deliver(_ notification: DeckNotification) async throws {
            attempts.append(notification)
            await gate.wait()
        }

        func deliver(_ gathered: GatheredNotification) async throws {
            Issue.record("the tests of a hanging target gather nothing")
        }
    }

    @Test func aPanelFlappingAgainstATargetThatHangsOwesItTwoDeliveriesAtMost() async throws {
        let loader = ScriptedLoader(script: (0..<8).map { $0.isMultiple(of: 2) ? .failure(.server) : .success(.one) })
        // Flapping off: the outbox's bound is under test, not the flapping that quiets it.
        let test = await NotifierTests.deck(loader, flapping: nil)
        let ledger = MemoryLedger()
        let target = HangingTarget()
        defer { target.gate.open() }
        let notifier = await NotifierTests.notifier(test, NotifyRule(failures: 1), target, ledger: ledger)
        defer { Task { await notifier.stop() } }
        let mostOwed = Locked(0)
        await test.deck.start()
        for load in 0..<8 {
            await test.until { $0.phase == (load.isMultiple(of: 2) ? .error : .loaded) && !$0.isLoading }
            await test.settle()
            mostOwed.withLock { $0 = max($0, ledger.pending.current.count) }
            if load < 7 { await test.advance(to: .seconds(10 * (load + 1))) }
        }
        #expect(mostOwed.current == 2, "four outages told and ended, against a target that took the first")
        #expect(target.attempts.all.map(\.event) == [.failure])
        let owed = ledger.pending.current.map(\.notification)
        #expect(owed.map(\.event) == [.failure, .recovery])
        #expect(owed.last?.message == "API is up again after 1 min 10 s",
                "each recovery withdrawn by the next failure: the target was told it is down from the first, never up")
        #expect(owed.last?.at == TestDeck.date(at: .seconds(70)))
        target.gate.open()
        let sent = await test.eventually { target.attempts.all.count == 2 ? target.attempts.all : nil }
        #expect(sent?.last?.decided == owed.last)
        await test.eventually { ledger.pending.current.isEmpty ? true : nil }
    }

    /// Every delivery's outcome, as the server's log and StateDeck's own panel hear them.
    static func outcomes(of notifier: Notifier) async -> Recorder<Notifier.Delivery.Outcome> {
        let outcomes = Recorder<Notifier.Delivery.Outcome>()
        await notifier.onDelivery { outcomes.append($0.outcome) }
        return outcomes
    }

    /// Panel "p"'s entry telling each failed load to `target` at once.
    static func entry(_ target: any NotificationTarget) -> Notifier.Subscription {
        Notifier.Subscription(panel: "p", rule: NotifyRule(failures: 1).gathering(.zero), target: target)
    }

    /// That entry written twice in panel "p"'s list.
    static func twice(_ target: any NotificationTarget) -> [Notifier.Subscription] {
        [entry(target), Notifier.Subscription(panel: "p", rule: NotifyRule(failures: 1).gathering(.zero), target: target, repeated: 1)]
    }

    @Test func aDeliveryOverItsTargetsLimitIsDroppedAndSaidSo() async throws {
        let test = await NotifierTests.deck(ScriptedLoader(.failure(.server)))
        let ledger = MemoryLedger()
        let target = HangingTarget()
        defer { target.gate.open() }
        var limits = Notifier.Limits()
        limits.owedPerTarget = 1
        let notifier = Notifier(
            Self.twice(target),
            ledger: ledger, limits: limits, now: { TestDeck.date(at: .zero) }, clock: test.clock)
        defer { Task { await notifier.stop() } }
        let outcomes = await Self.outcomes(of: notifier)
        await notifier.follow(test.deck)
        await test.deck.start()
        let said = await test.eventually { outcomes.all.first }
        #expect(said == .dropped("hanging already has the most notifications owed that a target may have (1)"))
        #expect(target.attempts.all.count == 1)
        #expect(ledger.pending.current.map(\.key) == [Self.twice(target)[0].key], "the dropped one is not kept")
        #expect(ledger.kept.current[Self.twice(target)[1].key]?.isTold == true, "its outage is, so its recovery is told")
    }

    @Test func aRestartSendsWhatIsStillTrueOfABacklogAndDropsWhatIsPastTheHorizon() async throws {
        let now = TestDeck.date(at: .zero)
        let target = RecordingTarget()
        func left(_ event: DeckNotification.Event, minutesAgo: Double) -> PendingDelivery {
            PendingDelivery(key: Self.entry(target).key, notification: DeckNotification(
                event: event, panel: "p", title: "API", group: nil, error: event == .recovery ? nil : Self.error,
                downSince: now.addingTimeInterval(-90 * 60), at: now.addingTimeInterval(-minutesAgo * 60)))
        }
        // What a target that hung for an hour and a half left: an outage told and ended every
        // minute, the older half of it past the one-hour horizon.
        let backlog = (0..<90).map { left($0.isMultiple(of: 2) ? .failure : .recovery, minutesAgo: Double(90 - $0)) }
        let ledger = MemoryLedger(leftByEarlierRun: backlog)
        let test = await NotifierTests.deck(ScriptedLoader(.success(.one)))
        let notifier = Notifier(
            [Self.entry(target)],
            ledger: ledger, now: { now }, clock: test.clock)
        defer { Task { await notifier.stop() } }
        let outcomes = await Self.outcomes(of: notifier)
        await notifier.follow(test.deck)
        await test.eventually { ledger.pending.current.isEmpty ? true : nil }
        await test.settle()
        let kept = backlog.filter { $0.notification.at >= now.addingTimeInterval(-3_600) }
        #expect(kept.count == 60)
        #expect(target.sent.all.map(\.decided) == [kept[0].notification, kept[59].notification],
                "the oldest within the horizon, sent at once, then what is still true: up again (each recovery before withdrawn by the failure after it)")
        let dropped = outcomes.all.filter { if case .dropped = $0 { true } else { false } }
        #expect(dropped.count == backlog.count - kept.count)
        #expect(dropped.first == .dropped("decided at \(backlog[0].notification.at), older than the 1 h a notification may wait across a restart"))
    }
}
