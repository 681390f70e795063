import DeckTestSupport
import Foundation
import StateDeck
import StateDeckHistory
import StateDeckSQLite
@testable import StateDeckServer
import TestSupport
import Testing

extension Routed {
    /// A heartbeat's ping key lets whoever holds it forge the job's results, so no document a
    /// viewer reads holds it: not the state, a panel, a moment, a fixture. An operator reads it
    /// from its own route, which answers a viewer 403 naming the role.
    @Suite struct PingKeyExposureTests {
        static let key = "forge-me-if-you-can-0123456789"
        static let viewer = AccessToken.generate()
        static let operatorToken = AccessToken.generate()
        static let access = AccessList([
            AccessList.Entry(name: "vic", role: .viewer, digest: TokenDigest(of: "\(viewer)")),
            AccessList.Entry(name: "olga", role: .operator, digest: TokenDigest(of: "\(operatorToken)")),
        ])

        static func deck() -> Deck {
            Deck("Pings", panels: [
                Panel("backup", title: "Backup", heartbeat: .every(.seconds(3_600), grace: .seconds(600), pingPath: "/ping/\(key)")),
                Panel("code-pinged", title: "Pinged by code", heartbeat: .every(.seconds(3_600), grace: .seconds(600))),
                Panel("api", title: "API") { Info(summary: "up") },
            ])
        }

        static func get(_ server: RoutedDeckServer, _ target: String, as token: AccessToken) async throws -> HTTPTestResponse {
            try await server.request("GET", target, headers: [("Host", server.hostHeader), ("Authorization", "Bearer \(token)")])
        }

        /// A server of the deck, its history in a store that saves when told, asking the access list.
        static func withServer(_ body: (RoutedDeckServer, SQLiteHistoryStore) async throws -> Void) async throws {
            let fixture = HistoryFolderFixture()
            let store = try fixture.open()
            var options = LiveDeckServer.Options()
            options.access = access
            options.history = store
            try await RoutedDeckServer.run(deck(), options) { server in
                try await body(server, store)
            }
            store.close()
        }

        @Test func aViewersStatePanelMomentAndFixturesHoldNoPingKey() async throws {
            try await Self.withServer { server, store in
                store.flush()
                let at = DeckJSON.timestamp(Date())
                for target in ["/api/state", "/api/panels/backup", "/api/state?format=fixture",
                               "/api/state?at=\(at)", "/api/state?at=\(at)&format=fixture"] {
                    let answer = try await Self.get(server, target, as: Self.viewer)
                    #expect(answer.status == 200, "\(target): \(answer.text)")
                    #expect(!answer.text.contains(Self.key), "\(target) holds the key")
                    #expect(!answer.text.contains("pingPath"), "\(target)")
                    // A fixture is pretty-printed: `"hasPingURL" : true`.
                    #expect(answer.text.filter { !$0.isWhitespace }.contains(#""hasPingURL":true"#), "\(target): \(answer.text)")
                }
                let codePinged = try await Self.get(server, "/api/panels/code-pinged", as: Self.viewer)
                #expect(codePinged.text.contains(#""hasPingURL":false"#))
            }
        }

        @Test func anOperatorReadsThePingPathAViewerIsRefusedNamingTheRole() async throws {
            try await Self.withServer { server, _ in
                let read = try await Self.get(server, "/api/panels/backup/ping", as: Self.operatorToken)
                #expect(read.status == 200)
                #expect(read.text == #"{"pingPath":"/ping/\#(Self.key)"}"#)
                #expect(read.header("Cache-Control") == "no-store")
                let refused = try await Self.get(server, "/api/panels/backup/ping", as: Self.viewer)
                #expect(refused.status == 403)
                #expect(refused.text == #"{"error":{"code":"forbidden","message":"reading a ping URL needs the operator role; vic is a viewer","role":"operator"}}"#)
                for panel in ["code-pinged", "api", "nope"] {
                    let missing = try await Self.get(server, "/api/panels/\(panel)/ping", as: Self.operatorToken)
                    #expect(missing.status == 404, "\(panel)")
                    #expect(missing.apiError?.code == "not_found", "\(panel)")
                }
            }
        }

        /// Forms a history kept while the state still carried `pingPath` are read without it.
        @Test func aMomentOfAFormKeptWithAPingPathHoldsNoKey() async throws {
            try await Self.withServer { server, store in
                let old = #"{"id":"backup","title":"Backup","heartbeat":{"expects":"every 1 h, 10 min grace","graceMs":600000,"pingPath":"/ping/\#(Self.key)","lastPing":null}}"#
                store.keep(form: MomentForm(part: .panel("backup"), at: Date().millisecondsSince1970, json: old))
                store.flush()
                let at = DeckJSON.timestamp(Date())
                for target in ["/api/state?at=\(at)", "/api/state?at=\(at)&format=fixture"] {
                    let answer = try await Self.get(server, target, as: Self.viewer)
                    #expect(answer.status == 200, "\(target): \(answer.text)")
                    #expect(!answer.text.contains(Self.key), "\(target) holds the key")
                    // A fixture is pretty-printed: `"hasPingURL" : true`.
                    #expect(answer.text.filter { !$0.isWhitespace }.contains(#""hasPingURL":true"#), "\(target): \(answer.text)")
                }
            }
        }
    }
}

/// The reading of forms and fixtures written while the state carried `pingPath`.
@Suite struct LegacyPingPathTests {
    @Test func aFormsPingPathBecomesHasPingURLAndAnyOtherFormIsLeftAsItIs() {
        let named = #"{"heartbeat":{"expects":"every 1 h","pingPath":"/ping/abcdefghijklmnop"},"id":"b"}"#
        #expect(FixtureJSON.panelFormWithoutPingPath(named) == #"{"heartbeat":{"expects":"every 1 h","hasPingURL":true},"id":"b"}"#)
        let none = #"{"heartbeat":{"pingPath":null},"id":"b"}"#
        #expect(FixtureJSON.panelFormWithoutPingPath(none) == #"{"heartbeat":{"hasPingURL":false},"id":"b"}"#)
        let current = #"{"id":"b","title":"B","heartbeat":{"hasPingURL":true}}"#
        #expect(FixtureJSON.panelFormWithoutPingPath(current) == current, "a form of now is not rewritten")
        let told = #"{"id":"b","latestInfo":{"text":"the \"pingPath\" field"}}"#
        #expect(FixtureJSON.panelFormWithoutPingPath(told) == #"{"id":"b","latestInfo":{"text":"the \"pingPath\" field"}}"#,
                "a text naming the field is no ping path")
    }

    @Test func aFixtureWrittenWithAPingPathIsReadWithoutIt() throws {
        let file = """
            {"format":"statedeck-fixture","version":1,"statedeck":"0.9","at":"2026-11-27T03:12:00.000Z",
             "deck":{"title":"T","settings":{},"groups":[]},
             "panels":[{"id":"backup","heartbeat":{"expects":"every 1 h","pingPath":"/ping/kept-in-an-old-fixture"}}],
             "notice":null,"maintenance":{"active":[],"next":[]},"incidents":[]}
            """
        let fixture = try DeckFixture.read(Array(file.utf8), file: "old.json")
        let written = String(decoding: fixture.encoded(), as: UTF8.self)
        #expect(!written.contains("kept-in-an-old-fixture"))
        #expect(written.contains(#""hasPingURL" : true"#), "\(written)")
    }
}
