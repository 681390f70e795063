import Foundation
import StateDeck
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
