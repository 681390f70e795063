import Clocks
import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

@Suite struct HeartbeatSourceTests {
    static func panels(_ yaml: String, pingKeys: [String: String] = [:]) throws -> [Panel] {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: "/stack", environment: ["TZ": "UTC"]).makePanels(pingKeys: pingKeys)
    }

    @Test func aPeriodIsDueThatLongAfterTheLastRun() throws {
        let panel = try #require(try Self.panels("""
            panels:
              - id: backup
                heartbeat: { period: 1h, grace: 10m, key: abcdefghijklmnop-_12 }
            """).first)
        let heartbeat = try #require(panel.heartbeat)
        #expect(panel.sourceKind == "heartbeat")
        #expect(heartbeat.pingPath == "/ping/abcdefghijklmnop-_12")
        #expect(heartbeat.expects == "every 1 h")
        #expect(heartbeat.grace == .seconds(600))
        let run = Date(timeIntervalSince1970: 1_795_341_600)
        #expect(heartbeat.nextDue(run) == run.addingTimeInterval(3_600))
        #expect(heartbeat.clockTime(run) == "10:00", "TZ names UTC")
    }

    @Test func aScheduleIsDueAtItsNextTimeInItsZoneAcrossAClockChange() throws {
        let panel = try #require(try Self.panels("""
            panels:
              - id: backup
                heartbeat: { schedule: "0 3 * * *", timezone: Europe/Paris, grace: 30m }
            """, pingKeys: ["backup": "kept-key-kept-key-1"]).first)
        let heartbeat = try #require(panel.heartbeat)
        #expect(heartbeat.expects == "0 3 * * * (Europe/Paris)")
        #expect(heartbeat.pingPath == "/ping/kept-key-kept-key-1", "a key the file does not set is the kept one")
        // 03:02 CEST on 24 October 2026; Paris sets its clocks back an hour that night.
        let run = Date(timeIntervalSince1970: 1_792_803_720)
        let due = try #require(heartbeat.nextDue(run))
        #expect(due == Date(timeIntervalSince1970: 1_792_893_600), "03:00 CET, a day and 58 minutes later")
        #expect(heartbeat.clockTime(run) == "03:02")
        #expect(heartbeat.clockTime(due) == "03:00")
    }

    @Test func theKeysAFileDoesNotSetAreMadeOnceAndKeptForItsOwnerOnly() throws {
        let file = try DeckFile.parse("""
            panels:
              - id: backup
                heartbeat: { period: 1d, grace: 1h }
              - id: reports
                heartbeat: { period: 1h, grace: 5m, key: reports-key-reports-key }
              - id: api
                tcp: { host: localhost, port: 1 }
            """, file: "deck.yaml", folder: "/stack", environment: [:])
        #expect(file.panelsWithoutPingKeys == ["backup"])
        let folder = try TemporaryFolder()
        var keys = try PingKeys(folder: folder.path)
        let made = try keys.keys(for: file.panelsWithoutPingKeys)
        let key = try #require(made["backup"])
        #expect(key.count == 32)
        #expect(HeartbeatSource.isKey(key))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path(PingKeys.fileName))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        var again = try PingKeys(folder: folder.path)
        #expect(try again.keys(for: ["backup"]) == ["backup": key], "the same key after a restart")
        #expect(try again.keys(for: ["backup", "nightly"]).count == 2)
        #expect(try PingKeys(folder: folder.path).keys["nightly"] != nil, "a new panel's key is kept too")
    }

    @Test func onePanelsKeyIsMadeOnceAndKept() throws {
        let folder = try TemporaryFolder()
        var keys = try PingKeys(folder: folder.path)
        let key = try keys.key(for: "backup")
        #expect(HeartbeatSource.isKey(key))
        #expect(try keys.key(for: "backup") == key)
        var again = try PingKeys(folder: folder.path)
        #expect(try again.key(for: "backup") == key, "the same key after a restart")
        #expect(try again.key(for: "nightly") != key)
    }

    @Test func aFileThatIsNotKeysIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("[1, 2]", to: PingKeys.fileName)
        let refusal = #expect(throws: PingKeys.Failure.self) { try PingKeys(folder: folder.path) }
        #expect(refusal?.description.hasPrefix("\(path): not a JSON object") == true)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/etc/passwd")
        #expect(throws: PingKeys.Failure.self, "a link is not followed") { try PingKeys(folder: folder.path) }
    }

    @Test func withoutAFolderKeysHoldForTheRun() throws {
        var keys = try PingKeys(folder: nil)
        let made = try keys.keys(for: ["backup"])
        #expect(try keys.keys(for: ["backup"]) == made)
        #expect(keys.path == nil)
    }
}

/// A deck file's scheduled heartbeat on a virtual clock, across the night Paris sets its clocks back.
@Suite struct HeartbeatScheduleDeckTests {
    /// 2026-10-24 00:30 UTC, 02:30 in Paris (summer time).
    static let origin = Date(timeIntervalSince1970: 1_792_801_800)

    @Test func aRunDueInTheRepeatedHourIsLateAtItsFirstPassPlusTheGrace() async throws {
        let clock = TestClock<Duration>()
        let panels = try HeartbeatSourceTests.panels("""
            panels:
              - id: backup
                title: Backup
                heartbeat: { schedule: "30 2 * * *", timezone: Europe/Paris, grace: 30m, key: backup-key-backup-key }
            """)
        let deck = Deck("Night", configuration: Deck.Configuration(
            clock: clock, now: { Self.origin.addingTimeInterval(TestClock<Duration>.Instant().duration(to: clock.now) / .seconds(1)) }
        ), panels: panels)
        await deck.start()
        await clock.advance(by: .seconds(60))
        try await deck.ping(panel: "backup", .success, body: "")
        let up = try await deck.panelState("backup")
        // The next 02:30 comes twice on the 25th; the first, 00:30 UTC, is when it is due.
        #expect(up.heartbeat?.lateAt == Date(timeIntervalSince1970: 1_792_890_000), "01:00 UTC, 02:00 CET")
        await clock.advance(by: .seconds(24 * 3_600 + 29 * 60 - 1))
        #expect(try await deck.panelState("backup").phase == .loaded)
        await clock.advance(by: .seconds(1))
        let late = try #require(await eventuallyValue {
            let state = try? await deck.panelState("backup")
            return state?.phase == .error ? state : nil
        })
        #expect(late.latestValidError?.description == "No ping from Backup since 02:31; expected by 02:00.")
        await deck.stop()
    }
}
