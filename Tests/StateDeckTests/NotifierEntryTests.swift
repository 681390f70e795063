import Clocks
import Foundation
import Testing
@testable import StateDeck
@testable import StateDeckNotifications

/// A `notify:` entry is known by what it sends to and its rule, not by its place in the list: an
/// entry moved keeps its outage, and one removed, edited, or of a panel removed forgets it quietly.
@Suite(.stopsDecks) struct NotifierEntryTests {
    typealias RecordingTarget = NotifierTests.RecordingTarget
    typealias MemoryLedger = NotifierTests.MemoryLedger

    /// Panel "p"'s entry telling `target` by `rule` at once.
    static func entry(_ target: RecordingTarget, _ rule: NotifyRule) -> Notifier.Subscription {
        Notifier.Subscription(panel: "p", rule: rule.gathering(.zero), target: target)
    }

    /// A notifier of `entries` on `test`'s clock, following its deck.
    static func notifier(_ test: TestDeck, _ entries: [Notifier.Subscription], ledger: MemoryLedger,
                         log: NotificationLog = NotificationLog()) async -> Notifier {
        let clock = test.clock
        let notifier = Notifier(entries, ledger: ledger, log: log,
                                now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await notifier.follow(test.deck)
        return notifier
    }

    /// Panel "p" failing once with `entries`: the run before the deck file was edited.
    static func failOnce(_ entries: [Notifier.Subscription], ledger: MemoryLedger, told: RecordingTarget) async {
        let test = await NotifierTests.deck(ScriptedLoader(.failure(.server)))
        let notifier = await notifier(test, entries, ledger: ledger)
        await test.deck.start()
        await test.eventually { told.sent.all.count == 1 ? true : nil }
        await test.deck.stop()
        await notifier.stop()
    }

    /// Panel "p" back and loading well, with `entries`: returns what `targets` were sent, every
    /// run's, once it has settled.
    static func healthyAgain(_ entries: [Notifier.Subscription], ledger: MemoryLedger, log: NotificationLog = NotificationLog(),
                             _ targets: [RecordingTarget]) async -> [[DeckNotification.Event]] {
        let test = await NotifierTests.deck(ScriptedLoader(.success(.one)))
        let notifier = await notifier(test, entries, ledger: ledger, log: log)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { $0.phase == .loaded }
        await test.settle()
        return targets.map { $0.sent.all.map(\.event) }
    }

    @Test func entriesReorderedKeepEachOnesOutage() async {
        let ledger = MemoryLedger()
        let chat = RecordingTarget(name: "chat"), pager = RecordingTarget(name: "pager")
        let told = Self.entry(chat, .failures(1)), waiting = Self.entry(pager, .failures(3))
        await Self.failOnce([told, waiting], ledger: ledger, told: chat)
        #expect(ledger.kept.current[told.key]?.isTold == true)
        #expect(ledger.kept.current[waiting.key]?.failures == 1)

        let sent = await Self.healthyAgain([waiting, told], ledger: ledger, [chat, pager])
        #expect(sent == [[.failure, .recovery], []], "the recovery goes to the entry told the failure, wherever it is now")
        #expect(ledger.kept.current.isEmpty)
    }

    @Test func anEntryRemovedWhileDownForgetsItsOutageAndTheLogSaysSo() async throws {
        let ledger = MemoryLedger()
        let chat = RecordingTarget(name: "chat")
        let entry = Self.entry(chat, .failures(1))
        await Self.failOnce([entry], ledger: ledger, told: chat)

        let log = NotificationLog()
        let removedAt = TestDeck.date(at: .seconds(600))
        _ = Notifier([], ledger: ledger, log: log, now: { removedAt })
        #expect(ledger.kept.current.isEmpty, "forgotten as the deck without it is followed")
        let logged = try #require(log.entries.first)
        #expect(log.entries.count == 1)
        #expect(logged == NotificationLog.Entry(at: removedAt, event: .recovery, panels: ["p"],
                                                message: "p was down when its notify entry was removed", target: "chat",
                                                outcome: .silent("removed while down")))

        let sent = await Self.healthyAgain([entry], ledger: ledger, [chat])
        #expect(sent == [[.failure]], "added again, its first good load tells no recovery of an outage nobody watched")
    }

    @Test func anEntryWhoseRuleOrTargetWasEditedIsANewEntry() async {
        let ledger = MemoryLedger()
        let chat = RecordingTarget(name: "chat")
        await Self.failOnce([Self.entry(chat, .failures(1))], ledger: ledger, told: chat)

        let log = NotificationLog()
        let edited = Self.entry(chat, NotifyRule.failures(1).reminding(every: .seconds(3_600), times: 1))
        let sent = await Self.healthyAgain([edited], ledger: ledger, log: log, [chat])
        #expect(sent == [[.failure]], "the edited entry starts with no outage: the good load ends none")
        #expect(log.entries.map(\.outcome) == [.silent("removed while down")])
        #expect(ledger.kept.current.isEmpty)

        let moved = RecordingTarget(name: "chat", address: "chat, elsewhere")
        #expect(Self.entry(moved, .failures(1)).key != Self.entry(chat, .failures(1)).key, "another address, another entry")
    }

    @Test func anOutageAnOlderVersionKeptByPositionIsForgottenQuietly() async {
        let chat = RecordingTarget(name: "chat")
        var told = OutageWatch()
        told.failures = 3
        told.downSince = TestDeck.origin
        told.toldAt = TestDeck.origin
        let ledger = MemoryLedger(kept: ["p#0": told])
        let log = NotificationLog()
        let sent = await Self.healthyAgain([Self.entry(chat, .failures(1))], ledger: ledger, log: log, [chat])
        #expect(sent == [[]], "no recovery of the outage kept by position")
        #expect(log.entries.isEmpty, "its end is not logged")
        #expect(ledger.kept.current.isEmpty)
    }

    @Test func theKeyIsTheSHA256OfTheAddressAndTheRuleAndHoldsNoSecret() {
        let hook = RecordingTarget(name: "webhook hooks.example",
                                   address: "webhook POST https://ops:pa55@hooks.example/x?token=t0k\nAuthorization: Bearer s3cret")
        let key = Self.entry(hook, .failures(1)).key
        #expect(key == "p#cd591662d03c982916c3bd793f3af49a0b3223cf6efa892333aa746fa1a36586",
                "the same in every version: a changed digest forgets every outage at the upgrade")
        #expect(!["pa55", "t0k", "s3cret", "hooks"].contains { key.contains($0) })
        let twice = Notifier.Subscription(panel: "p", rule: NotifyRule.failures(1).gathering(.zero), target: hook, repeated: 1)
        #expect(twice.key == key + "+1", "an entry written twice keeps two outages")
        #expect(Self.entry(hook, .failures(1).reminding(every: .seconds(60), times: 2)).key != key)
        #expect(Self.entry(hook, NotifyRule(failures: 1, down: .seconds(90))).key != key)
        #expect(Notifier.Subscription(panel: "p", rule: .failures(1), target: hook).key == key,
                "gathered for 10 s: the window groups messages, and changes no outage")
    }
}
