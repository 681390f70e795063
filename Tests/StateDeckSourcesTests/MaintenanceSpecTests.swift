import Clocks
import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

@Suite struct MaintenanceSpecTests {
    static let panels = """
        panels:
          - { id: api, group: web, tcp: { host: localhost, port: 80 } }
          - { id: www, group: web, tcp: { host: localhost, port: 443 } }
          - { id: db, tcp: { host: localhost, port: 5432 } }
        """

    static func file(_ maintenance: String) throws(DeckFileError) -> DeckFile {
        try DeckFile.parse(panels + "\nmaintenance:\n" + maintenance, file: "deck.yaml", folder: "/stack", environment: ["TZ": "UTC"])
    }

    @Test func windowsAreReadOnceOrRecurringWithIdsStableByPlace() throws {
        let file = try Self.file("""
              - reason: Database upgrade
                panels: [db]
                groups: [web]
                from: 2026-12-01T02:00:00+01:00
                to: 2026-12-01T04:00:00Z
              - id: sunday-backup
                reason: Weekly backup
                groups: [web]
                schedule: "0 3 * * 0"
                duration: 90m
                timezone: Europe/Paris
              - reason: Log rotation
                panels: [db]
                schedule: "*/30 * * * *"
                duration: 5m
            """)
        #expect(file.maintenance.map(\.id) == ["file-1", "sunday-backup", "file-3"])
        #expect(file.maintenance[0].panels == ["api", "www", "db"], "in the file's order")
        #expect(file.maintenance[0].timing == .once(from: Date(timeIntervalSince1970: 1_796_086_800),
                                                    until: Date(timeIntervalSince1970: 1_796_097_600)))
        #expect(file.maintenance[1].window.panels == ["api", "www"])
        guard case .recurring(let recurrence) = file.maintenance[1].window.timing else {
            Issue.record("a schedule makes a recurring window")
            return
        }
        #expect(recurrence.schedule == "0 3 * * 0 (Europe/Paris)")
        #expect(recurrence.duration == .seconds(5_400))
        guard case .recurring(let rotation) = file.maintenance[2].window.timing else { return }
        #expect(rotation.schedule == "*/30 * * * * (UTC)", "the machine's zone by default")
    }

    @Test(arguments: [
        ("  - { panels: [db], from: 2026-12-01T02:00:00Z, to: 2026-12-01T03:00:00Z }",
         "deck.yaml:6: maintenance[0].reason: is required"),
        ("  - { reason: x, from: 2026-12-01T02:00:00Z, to: 2026-12-01T03:00:00Z }",
         "deck.yaml:6: maintenance[0]: needs panels or groups: the ids it covers"),
        ("  - { reason: x, panels: [dbb], from: 2026-12-01T02:00:00Z, to: 2026-12-01T03:00:00Z }",
         "deck.yaml:6: maintenance[0].panels[0]: no panel dbb in the file's panels; did you mean db?"),
        ("  - { reason: x, groups: [webb], from: 2026-12-01T02:00:00Z, to: 2026-12-01T03:00:00Z }",
         "deck.yaml:6: maintenance[0].groups[0]: no group webb in the file's groups; did you mean web?"),
        ("  - { reason: x, panels: [db], from: 2026-12-01T02:00:00Z, to: 2026-12-01T02:00:00Z }",
         "deck.yaml:6: maintenance[0].to: must be after from"),
        ("  - { reason: x, panels: [db], from: 2026-12-01 02:00, to: 2026-12-01T03:00:00Z }",
         #"deck.yaml:6: maintenance[0].from: "2026-12-01 02:00" is not a time; write it as ISO 8601 with its offset, like 2026-12-01T02:00:00+01:00 or 2026-12-01T01:00:00Z"#),
        ("  - { reason: x, panels: [db], from: 2026-12-01T02:00:00 , to: 2026-12-01T03:00:00Z }",
         #"deck.yaml:6: maintenance[0].from: "2026-12-01T02:00:00" is not a time; write it as ISO 8601 with its offset, like 2026-12-01T02:00:00+01:00 or 2026-12-01T01:00:00Z"#),
        ("  - { reason: x, panels: [db], from: 2026-12-06T25:61:61Z, to: 2026-12-07T03:00:00Z }",
         #"deck.yaml:6: maintenance[0].from: "2026-12-06T25:61:61Z" is not a time that exists: hour 25 is out of range (0 to 23)"#),
        ("  - { reason: x, panels: [db], from: 2026-02-01T02:00:00Z, to: 2026-02-30T03:00:00Z }",
         #"deck.yaml:6: maintenance[0].to: "2026-02-30T03:00:00Z" is not a time that exists: February 2026 has no day 30 (it has 28)"#),
        ("  - { reason: x, panels: [db], from: 2026-12-01T02:00:00+19:00, to: 2026-12-07T03:00:00Z }",
         #"deck.yaml:6: maintenance[0].from: "2026-12-01T02:00:00+19:00" is not a time that exists: offset +19:00 is out of range (-18:00 to +18:00)"#),
        ("  - { reason: x, panels: [db], from: 2026-12-01T02:00:00Z }",
         "deck.yaml:6: maintenance[0].to: is required"),
        ("  - { reason: x, panels: [db], schedule: \"0 3 * *\", duration: 1h }",
         #"deck.yaml:6: maintenance[0].schedule: "0 3 * *" is not a cron schedule: 5 fields expected (minute hour day-of-month month day-of-week), found 4"#),
        ("  - { reason: x, panels: [db], schedule: \"0 3 * * *\", duration: 3 hours }",
         #"deck.yaml:6: maintenance[0].duration: "3 hours" is not a duration; write it like 500ms, 5s, 2m, 1h or 7d"#),
        ("  - { reason: x, panels: [db], schedule: \"0 3 * * *\", duration: 8d }",
         "deck.yaml:6: maintenance[0].duration: must be at most 7 days"),
        ("  - { reason: x, panels: [db], schedule: \"0 3 * * *\" }",
         "deck.yaml:6: maintenance[0].duration: is required"),
        ("  - { reason: x, panels: [db], from: 2026-12-01T02:00:00Z, to: 2026-12-01T03:00:00Z, duration: 1h }",
         "deck.yaml:6: maintenance[0].duration: a window is either from and to, or schedule and duration, not both"),
        ("  - { reason: x, panels: [db] }",
         "deck.yaml:6: maintenance[0]: needs from and to (once), or schedule and duration (again and again)"),
        ("  - { reason: x, panels: [db], schedule: \"0 3 * * *\", duration: 1h, timezone: Mars/Olympus }",
         "deck.yaml:6: maintenance[0].timezone: time zone Mars/Olympus"),
        ("  - { id: nightly, reason: x, panels: [db], schedule: \"0 3 * * *\", duration: 1h }\n  - { id: nightly, reason: y, panels: [db], schedule: \"0 4 * * *\", duration: 1h }",
         "deck.yaml:7: maintenance[1].id: nightly is already the id of maintenance[0]"),
        ("  - { reason: x, panels: [db], schedule: \"0 3 * * *\", duration: 1h, till: 2026-12-01T03:00:00Z }",
         "deck.yaml:6: maintenance[0].till: unknown key"),
        ("  - { reason: \(String(repeating: "a\u{0308}\u{0308}", count: 201)), panels: [db], schedule: \"0 3 * * *\", duration: 1h }",
         "deck.yaml:6: maintenance[0].reason: must have at most 200 characters and 1,000 bytes, not 201 characters and 1,005 bytes"),
    ])
    func aBadWindowIsReportedWithItsLineAndKey(maintenance: String, problem: String) {
        #expect(throws: DeckFileError.self) { try Self.file(maintenance) }
        do {
            _ = try Self.file(maintenance)
        } catch {
            #expect(error.problems.count == 1, "\(error.description)")
            #expect(error.description.hasPrefix(problem), "\(error.description)")
        }
    }
}

/// A deck file's weekly window on a virtual clock, across the night Paris sets its clocks back.
@Suite(.timeLimit(.minutes(1))) struct MaintenanceScheduleDeckTests {
    /// 2026-10-24 22:00 UTC, midnight in Paris (summer time), a Saturday night.
    static let origin = Date(timeIntervalSince1970: 1_792_879_200)

    @Test func aWindowAtTwoThirtyInParisOpensAtTheFirstPassOfTheRepeatedHour() async throws {
        let clock = TestClock<Duration>()
        let file = try DeckFile.parse("""
            panels:
              - { id: db, heartbeat: { period: 1d, grace: 1h, key: backup-key-backup-key } }
            maintenance:
              - { reason: Vacuum, panels: [db], schedule: "30 2 * * 0", duration: 45m, timezone: Europe/Paris }
            """, file: "deck.yaml", folder: "/stack")
        let deck = file.makeDeck(configuration: Deck.Configuration(
            clock: clock, now: { Self.origin.addingTimeInterval(TestClock<Duration>.Instant().duration(to: clock.now) / .seconds(1)) }))
        await deck.start()
        let next = await deck.maintenanceStatus().next
        // 02:30 comes twice on the 25th; the first, 00:30 UTC (02:30 CEST), opens the window.
        #expect(next.map(\.from) == [Date(timeIntervalSince1970: 1_792_888_200)])
        #expect(next.map(\.until) == [Date(timeIntervalSince1970: 1_792_890_900)], "45 minutes later, 02:15 CET")
        await clock.advance(by: .seconds(2 * 3_600 + 30 * 60 - 1))
        #expect(try await deck.panelState("db").maintenance == nil)
        await clock.advance(by: .seconds(1))
        let opened = try #require(await eventuallyValue { try? await deck.panelState("db").maintenance })
        #expect(opened == MaintenanceMark(id: "file-1", reason: "Vacuum", until: Date(timeIntervalSince1970: 1_792_890_900)))
        await clock.advance(by: .seconds(45 * 60 - 1))
        #expect(try await deck.panelState("db").maintenance != nil)
        await clock.advance(by: .seconds(1))
        let ended = try #require(await eventuallyValue { (try? await deck.panelState("db")).flatMap { $0.maintenance == nil ? $0 : nil } })
        #expect(ended.maintenance == nil)
        let closed = await deck.maintenanceStatus()
        #expect(closed.active.isEmpty)
        #expect(closed.next.isEmpty, "the second 02:30 of the night opens nothing; next Sunday's is 7 days and 15 minutes away")
        await clock.advance(by: .seconds(15 * 60))
        let listed = try #require(await eventuallyValue { await deck.maintenanceStatus().next.first })
        #expect(listed.from == Date(timeIntervalSince1970: 1_793_496_600), "next Sunday, 02:30 CET, once 7 days away")
        await deck.stop()
    }
}
