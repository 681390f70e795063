import Clocks
import Foundation
import Testing
@testable import StateDeck
@testable import StateDeckNotifications

/// The notifier keeping quiet under maintenance, flapping and dependencies, on a test clock: each
/// panel is a heartbeat whose results the test sends as pings, at exact times.
@Suite(.stopsDecks) struct NotifierQuietTests {
    typealias RecordingTarget = NotifierTests.RecordingTarget
    typealias MemoryLedger = NotifierTests.MemoryLedger

    static func panel(_ id: String, title: String) -> Panel {
        Panel(id, title: title, heartbeat: .every(.seconds(86_400), grace: .seconds(600)))
    }

    /// The "upgrade" window over panel "p", from 10:01 to 10:03 on the test clock's day.
    static let upgrade = MaintenanceWindow(
        id: "upgrade", reason: "Database upgrade", panels: ["p"],
        timing: .once(from: TestDeck.date(at: .seconds(60)), until: TestDeck.date(at: .seconds(180))))

    /// A notifier of the first entry of each of `panels`, by `rule` gathering within `gather`
    /// (off unless the test is about gathering).
    static func notifier(_ test: TestDeck, panels: [String], _ rule: NotifyRule, _ target: RecordingTarget,
                         ledger: MemoryLedger? = nil, gather: Duration = .zero) async -> Notifier {
        let clock = test.clock
        let subscriptions = panels.map { Notifier.Subscription(panel: $0, rule: rule.gathering(gather), target: target) }
        let notifier = Notifier(subscriptions, ledger: ledger,
                                now: { TestDeck.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) }, clock: clock)
        await notifier.follow(test.deck)
        return notifier
    }

    /// Sends panel `id` a ping at `offset` on the test clock: a run that ended well or failed.
    static func ping(_ test: TestDeck, _ id: String = "p", at offset: Duration, failed: Bool) async throws {
        await test.advance(to: offset)
        try await test.deck.ping(panel: id, failed ? .failure(exitStatus: 1) : .success, body: "")
        await test.settle()
    }

    @Test func aWindowOpeningMidOutageHoldsItsRecoveryUntilTheWindowEnds() async throws {
        let test = await TestDeck(maintenance: [Self.upgrade]) { Self.panel("p", title: "API") }
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: ["p"], NotifyRule(failures: 1), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        try await Self.ping(test, at: .seconds(10), failed: true)
        #expect(target.sent.all.map(\.event) == [.failure])
        await test.advance(to: .seconds(60))
        await test.until { $0.maintenance != nil }
        try await Self.ping(test, at: .seconds(70), failed: false)
        await test.advance(to: .seconds(180) - .milliseconds(1))
        await test.settle()
        #expect(target.sent.all.count == 1, "nothing is sent while the window lasts")
        await test.advance(to: .seconds(180))
        let sent = await test.eventually { target.sent.all.count == 2 ? target.sent.all : nil }
        let recovery = try #require(sent?.last)
        #expect(recovery.event == .recovery)
        #expect(recovery.downSince == TestDeck.date(at: .seconds(10)))
        #expect(recovery.at == TestDeck.date(at: .seconds(70)), "up since its first good result, told at the window's end")
        let log = notifier.log.entries
        #expect(log.first?.outcome == .sent)
        #expect(log.dropFirst().first?.outcome == .held("until maintenance 'Database upgrade' ends"))
    }

    @Test func aFailureInsideTheWindowIsToldAsNewWhenItOutlastsItAndNotAtAllWhenItEndsInside() async throws {
        let window = MaintenanceWindow(id: "w", reason: "Upgrade", panels: ["p", "q"],
                                       timing: .once(from: TestDeck.date(at: .zero), until: TestDeck.date(at: .seconds(180))))
        let test = await TestDeck(maintenance: [window]) {
            Self.panel("p", title: "API")
            Self.panel("q", title: "Web")
        }
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: ["p", "q"], NotifyRule(failures: 1), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until { $0.maintenance != nil }
        try await Self.ping(test, "p", at: .seconds(10), failed: true)
        try await Self.ping(test, "q", at: .seconds(20), failed: true)
        try await Self.ping(test, "q", at: .seconds(30), failed: false)
        #expect(target.sent.all.isEmpty)
        #expect(notifier.log.entries.map(\.outcome) == [.silent("maintenance 'Upgrade'"), .silent("maintenance 'Upgrade'"),
                                                          .silent("maintenance 'Upgrade'")])
        await test.advance(to: .seconds(180))
        let sent = await test.eventually { target.sent.all.isEmpty ? nil : target.sent.all }
        await test.settle()
        #expect(target.sent.all.count == 1, "Web's outage began and ended inside the window")
        let failure = try #require(sent?.first)
        #expect(failure.panel == "p" && failure.event == .failure)
        #expect(failure.downSince == TestDeck.date(at: .seconds(180)), "told as new")
        #expect(failure.at == TestDeck.date(at: .seconds(180)))
    }

    /// Panel "p" failing at 10:01:10 under the "upgrade" window, its failure kept quiet in
    /// `ledger`, then its notifier and deck stopped: returns the deck, whose clock goes on.
    static func keptQuietThenStopped(_ ledger: MemoryLedger, telling target: RecordingTarget) async throws -> TestDeck {
        let first = await TestDeck(maintenance: [Self.upgrade]) { Self.panel("p", title: "API") }
        let stopped = await Self.notifier(first, panels: ["p"], NotifyRule(failures: 1), target, ledger: ledger)
        await first.deck.start()
        await first.advance(to: .seconds(60))
        await first.until { $0.maintenance != nil }
        try await Self.ping(first, at: .seconds(70), failed: true)
        await stopped.stop()
        await first.deck.stop()
        #expect(ledger.kept.current.values.map(\.silenced) == [true], "the silenced failure is kept")
        return first
    }

    @Test func aRestartInsideAWindowTellsTheOutageOnceWhenTheWindowEnds() async throws {
        let ledger = MemoryLedger()
        let before = RecordingTarget()
        let first = try await Self.keptQuietThenStopped(ledger, telling: before)
        let second = await TestDeck(clock: first.clock, maintenance: [Self.upgrade]) { Self.panel("p", title: "API") }
        let after = RecordingTarget()
        let notifier = await Self.notifier(second, panels: ["p"], NotifyRule(failures: 1), after, ledger: ledger.reopened())
        defer { Task { await notifier.stop() } }
        await second.deck.start()
        await second.until { $0.maintenance != nil }
        try await Self.ping(second, at: .seconds(100), failed: true)
        await second.advance(to: .seconds(180))
        let sent = await second.eventually { after.sent.all.isEmpty ? nil : after.sent.all }
        await second.advance(to: .seconds(240))
        await second.settle()
        #expect(before.sent.all.isEmpty)
        #expect(sent?.map(\.event) == [.failure])
        #expect(after.sent.all.count == 1, "told once")
        #expect(sent?.first?.at == TestDeck.date(at: .seconds(180)))
    }

    /// ``keptQuietThenStopped(_:telling:)``, then a deck and notifier telling `target` started
    /// with the ledger at 10:03:20, after the window's end, which no notifier heard.
    static func restartedAfterTheWindow(_ target: RecordingTarget) async throws -> (TestDeck, Notifier) {
        let ledger = MemoryLedger()
        let first = try await Self.keptQuietThenStopped(ledger, telling: RecordingTarget())
        await first.advance(to: .seconds(200))
        let second = await TestDeck(clock: first.clock, maintenance: [Self.upgrade]) { Self.panel("p", title: "API") }
        let notifier = await Self.notifier(second, panels: ["p"], NotifyRule(failures: 1), target, ledger: ledger.reopened())
        await second.deck.start()
        return (second, notifier)
    }

    @Test func aWindowEndingWhileStoppedTellsTheOutageItKeptQuietAtTheFirstFailedRunAfterOnce() async throws {
        let target = RecordingTarget()
        let (test, notifier) = try await Self.restartedAfterTheWindow(target)
        defer { Task { await notifier.stop() } }
        try await Self.ping(test, at: .seconds(240), failed: true)
        let failure = try #require(await test.eventually { target.sent.all.first })
        #expect(failure.event == .failure)
        #expect(failure.downSince == TestDeck.date(at: .seconds(240)), "told as new")
        #expect(failure.at == TestDeck.date(at: .seconds(240)))
        try await Self.ping(test, at: .seconds(250), failed: true)
        try await Self.ping(test, at: .seconds(260), failed: false)
        let sent = await test.eventually { target.sent.all.count == 2 ? target.sent.all : nil }
        await test.settle()
        #expect(sent?.map(\.event) == [.failure, .recovery])
        #expect(target.sent.all.count == 2, "told once")
        #expect(sent?.last?.downSince == TestDeck.date(at: .seconds(240)))
    }

    @Test func anOutageKeptQuietByAWindowThatEndedWhileStoppedAndEndedUnheardIsNeverTold() async throws {
        let target = RecordingTarget()
        let (test, notifier) = try await Self.restartedAfterTheWindow(target)
        defer { Task { await notifier.stop() } }
        try await Self.ping(test, at: .seconds(240), failed: false)
        await test.settle()
        #expect(target.sent.all.isEmpty, "no recovery of a failure never told")
        try await Self.ping(test, at: .seconds(250), failed: true)
        let failure = try #require(await test.eventually { target.sent.all.first })
        #expect(failure.event == .failure && failure.downSince == TestDeck.date(at: .seconds(250)), "a new outage, told by its rule")
    }

    /// Postgres ("db") and an API that depends on it, each told after two failed runs in a row.
    static func dependencyDeck() async -> TestDeck {
        await TestDeck {
            Self.panel("db", title: "Postgres")
            Self.panel("api", title: "API").depends(on: "db")
        }
    }

    @Test func aDependencyRecoveringBeforeItsDependentsIsToldNamingThemAndTheyAreNeverTold() async throws {
        let test = await Self.dependencyDeck()
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: ["db", "api"], NotifyRule(failures: 2), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        try await Self.ping(test, "api", at: .seconds(1), failed: true)
        try await Self.ping(test, "db", at: .seconds(2), failed: true)
        try await Self.ping(test, "api", at: .seconds(11), failed: true)
        try await Self.ping(test, "db", at: .seconds(12), failed: true)
        let failure = try #require(await test.eventually { target.sent.all.first })
        #expect(failure.panel == "db")
        #expect(failure.message == "Postgres is down: \(ErrorKind.jobFailed.title); 1 panel that depends on it is failing too")
        #expect(failure.dependents == ["api"])
        #expect(notifier.log.entries.contains { $0.panels == ["api"] && $0.outcome == .held("dependency Postgres down") })

        try await Self.ping(test, "db", at: .seconds(20), failed: false)
        try await Self.ping(test, "api", at: .seconds(21), failed: true)
        try await Self.ping(test, "api", at: .seconds(25), failed: false)
        await test.advance(to: .seconds(60))
        await test.settle()
        #expect(target.sent.all.map(\.panel) == ["db", "db"], "the API's outage ended before its own rule held again")
        #expect(target.sent.all.map(\.event) == [.failure, .recovery])
    }

    @Test func aDependentThatOutlivesItsDependencysOutageIsToldByItsRuleCountedFromThen() async throws {
        let test = await Self.dependencyDeck()
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: ["db", "api"], NotifyRule(failures: 2), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        for second in [1, 2, 11, 12] {
            try await Self.ping(test, second.isMultiple(of: 2) ? "db" : "api", at: .seconds(second), failed: true)
        }
        try await Self.ping(test, "db", at: .seconds(20), failed: false)
        try await Self.ping(test, "api", at: .seconds(30), failed: true)
        #expect(target.sent.all.map(\.panel) == ["db", "db"], "one failed run since Postgres came back")
        try await Self.ping(test, "api", at: .seconds(40), failed: true)
        let told = try #require(await test.eventually { target.sent.all.count == 3 ? target.sent.all.last : nil })
        #expect(told.panel == "api" && told.event == .failure)
        #expect(told.downSince == TestDeck.date(at: .seconds(20)), "its own outage began when its cause ended")
    }

    @Test func aFlappingPanelIsToldOnceAndItsRecoveryWhenItHasBeenSteady() async throws {
        let test = await TestDeck(flapping: FlappingRule(changes: 2, within: .seconds(60))) { Self.panel("p", title: "API") }
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: ["p"], NotifyRule(failures: 1), target)
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        for (second, failed) in [(1, true), (5, false), (10, true), (15, false), (20, true), (25, false)] {
            try await Self.ping(test, at: .seconds(second), failed: failed)
        }
        #expect(target.sent.all.map(\.event) == [.failure, .recovery, .failure, .flapping])
        #expect(target.sent.all.last?.message == "API is flapping: 3 changes in 1 min")
        #expect(target.sent.all.last?.at == TestDeck.date(at: .seconds(15)))
        await test.advance(to: .seconds(85) - .milliseconds(1))
        await test.settle()
        #expect(target.sent.all.count == 4, "quiet while it flaps")
        await test.advance(to: .seconds(85))
        let recovery = try #require(await test.eventually { target.sent.all.count == 5 ? target.sent.all.last : nil })
        #expect(recovery.event == .recovery)
        #expect(recovery.downSince == TestDeck.date(at: .seconds(10)))
        #expect(recovery.at == TestDeck.date(at: .seconds(25)))
    }

    @Test func aStormUnderAWindowIsToldAsOneGatheredMessageWhenTheWindowEnds() async throws {
        let ids = (0..<200).map { "p\($0)" }
        let window = MaintenanceWindow(id: "w", reason: "Network work", panels: ids,
                                       timing: .once(from: TestDeck.date(at: .zero), until: TestDeck.date(at: .seconds(60))))
        let test = await TestDeck(maintenance: [window]) {
            for id in ids { Self.panel(id, title: id.uppercased()) }
        }
        let target = RecordingTarget()
        let notifier = await Self.notifier(test, panels: ids, NotifyRule(failures: 1), target, gather: .seconds(10))
        defer { Task { await notifier.stop() } }
        await test.deck.start()
        await test.until("p199") { $0.maintenance != nil }
        await test.advance(to: .seconds(1))
        for id in ids { try await test.deck.ping(panel: id, .failure(exitStatus: 1), body: "") }
        await test.advance(to: .seconds(60))
        await test.settle()
        #expect(target.sent.all.isEmpty && target.gathered.all.isEmpty)
        await test.advance(to: .seconds(70))
        let message = try #require(await test.eventually { target.gathered.all.first })
        #expect(message.count == 200)
        #expect(message.message == "200 panels down: P0, P1, P2, and 197 more")
        #expect(message.notifications.allSatisfy { $0.downSince == TestDeck.date(at: .seconds(60)) })
        await test.settle()
        #expect(target.gathered.all.count == 1 && target.sent.all.isEmpty)
    }
}
