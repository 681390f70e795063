import DeckTestSupport
import Foundation
import MicroHTTP
import StateDeck
@testable import StateDeckServer
import TestSupport
import Testing

/// A moment of the deck as a fixture: written from the state document, read back whole or
/// refused naming the file and the key, and served frozen by a replay server.
@Suite struct DeckFixtureTests {
    /// A state document of one panel, as `GET /api/state` answers.
    static let document = #"""
        {"title":"Shop","debug":false,"settings":{"pingIntervalMs":15000,"history":null},"groups":[{"id":"core","title":"Core"}],\#
        "lastEventId":41,"panels":[{"id":"api","title":"API","group":"core","phase":"error","health":"down",\#
        "since":"2027-01-15T07:59:58.000Z","latestValidError":{"kind":"timeout","title":"Timed out","description":"Too slow.",\#
        "icon":"clock","showPreloader":false,"options":[]}},{"id":"db","title":"Database"}],"notice":null,\#
        "maintenance":{"active":[],"next":[]},"incidents":[],"toast":null}
        """#

    static let instant = Date(timeIntervalSince1970: 1_800_000_000.25)

    static func fixtureBytes() throws -> [UInt8] {
        try DeckFixture(stateDocument: Array(document.utf8), at: instant).encoded()
    }

    /// The fixture's bytes with `change` made to its JSON.
    static func edited(_ change: (inout [String: Any]) -> Void) throws -> [UInt8] {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(try fixtureBytes())) as? [String: Any])
        change(&object)
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    @Test func aFixtureSaysWhatWroteItAndItsInstant() throws {
        let fixture = try DeckFixture(stateDocument: Array(Self.document.utf8), at: Self.instant)
        let written = try #require(try JSONSerialization.jsonObject(with: Data(fixture.encoded())) as? [String: Any])
        #expect(written["format"] as? String == "statedeck-fixture")
        #expect(written["version"] as? Int == 1)
        #expect(written["statedeck"] as? String == StateDeckVersion.current)
        #expect(written["at"] as? String == "2027-01-15T08:00:00.250Z")
        #expect(Set(written.keys) == ["format", "version", "statedeck", "at", "deck", "panels", "notice", "maintenance", "incidents"])
        #expect(fixture.fileName == "statedeck-2027-01-15T08-00-00.250Z.json")
        #expect(fixture.panelIDs == ["api", "db"])
    }

    @Test func aFixtureReadBackIsWrittenTheSame() throws {
        let bytes = try Self.fixtureBytes()
        let read = try DeckFixture.read(bytes, file: "moment.json")
        #expect(read.encoded() == bytes)
        #expect(read == (try DeckFixture(stateDocument: Array(Self.document.utf8), at: Self.instant)))
    }

    @Test func aNewerVersionIsRefusedByName() throws {
        let bytes = try Self.edited { $0["version"] = 2; $0["statedeck"] = "3.1.0"; $0["panels"] = "another shape" }
        #expect(throws: DeckFixture.Problem(
            file: "moment.json", key: nil,
            message: "written by StateDeck 3.1.0, fixture version 2; this StateDeck reads up to 1")) {
            try DeckFixture.read(bytes, file: "moment.json")
        }
    }

    @Test(arguments: [
        ("deck.title", "is missing"),
        ("panels[1].id", "must be a panel id (a string)"),
        ("panels", "must be an array"),
        ("at", "must be an ISO 8601 instant with milliseconds, found \"yesterday\""),
        ("format", "must be \"statedeck-fixture\", found \"statedeck-deck\""),
        ("version", "must be a whole number from 1 (this StateDeck reads up to 1)"),
        ("maintenance.active", "must be an array of maintenance windows"),
        ("incidents[0]", "is not an incident this StateDeck reads"),
    ])
    func aMalformedFixtureIsRefusedNamingTheKey(key: String, message: String) throws {
        let bytes = try Self.edited { fixture in
            switch key {
            case "deck.title": fixture["deck"] = ["settings": [:], "groups": []]
            case "panels[1].id": fixture["panels"] = [["id": "api"], ["title": "No id"]]
            case "panels": fixture["panels"] = ["api": [:]]
            case "at": fixture["at"] = "yesterday"
            case "format": fixture["format"] = "statedeck-deck"
            case "version": fixture["version"] = 0
            case "maintenance.active": fixture["maintenance"] = ["next": []]
            default: fixture["incidents"] = [["id": "i-1"]]
            }
        }
        #expect(throws: DeckFixture.Problem(file: "moment.json", key: key, message: message)) {
            try DeckFixture.read(bytes, file: "moment.json")
        }
    }

    @Test func aReplaysHeadlinesSayWhatEachPanelsMarksSay() throws {
        var fixture = try DeckFixture(stateDocument: Array(Self.document.utf8), at: Self.instant)
        fixture.panels[0] = try JSONDecoder().decode(FixtureJSON.self, from: Data(#"""
            {"id":"api","title":"API","phase":"error","health":"down",\#
            "maintenance":{"id":"m-1","reason":"Upgrade","until":"2027-01-15T09:00:00.000Z"},\#
            "flapping":{"since":"2027-01-15T07:50:00.000Z","changes":6,"within":"10 min"}}
            """#.utf8))
        let headlines = fixture.exportedPanels().map(\.headline)
        #expect(headlines == [PanelHeadline(label: "API", health: .down, inMaintenance: true, flapping: true),
                              PanelHeadline(label: "Database", health: .unknown)])
    }

    @Test func aFileThatIsNotJSONIsRefusedNamingIt() {
        #expect(throws: DeckFixture.Problem(file: "moment.json", key: nil,
                                            message: "is not a StateDeck fixture: not a JSON object")) {
            try DeckFixture.read(Array("{\"format\": ".utf8), file: "moment.json")
        }
    }
}

extension Routed {
    /// `GET /api/state?format=fixture` from a live deck, and that fixture served by a replay server.
    @Suite struct ReplayTests {
        /// A replay server of `fixture` with debug states on or off, bound to a free port and asked
        /// through its responder.
        final class ReplayServer: Sendable {
            let server: DeckServer
            let folder: PublicFolder
            let port: Int

            init(_ fixture: DeckFixture, debug: Bool) async throws {
                folder = try PublicFolder()
                var configuration = ServerConfiguration(publicDirectory: folder.url)
                configuration.port = 0
                configuration.debug = debug
                server = try await DeckServer(deck: ReplayHost.idleDeck(fixture), configuration: configuration,
                                              host: ReplayHost(fixture: fixture, file: "moment.json"))
                port = try await server.start()
            }

            static func run(_ fixture: DeckFixture, debug: Bool, _ body: (ReplayServer) async throws -> Void) async throws {
                try await stopping(try await ReplayServer(fixture, debug: debug), with: { await $0.stop() }, after: body)
            }

            func stop() async {
                await server.stop()
                folder.remove()
            }

            func send(_ method: String, _ target: String, json: String? = nil) async throws -> HTTPTestResponse {
                var headers = HTTPHeaders([(name: "Host", value: "127.0.0.1:\(port)")])
                if json != nil { headers.add("Content-Type", "application/json") }
                let body = Array((json ?? "").utf8)
                if !body.isEmpty { headers.add("Content-Length", String(body.count)) }
                let request = try HTTPRequest(method: HTTPMethod(rawValue: method), target: target, headers: headers, body: body)
                return try HTTPTestResponse(routed: await server.responder.respond(to: request).answer())
            }
        }

        /// The state document without what belongs to the server serving it, not to the moment
        /// (a replay's `replay` included).
        static func moment(_ response: HTTPTestResponse) throws -> FixtureJSON {
            guard case .object(var members) = try JSONDecoder().decode(FixtureJSON.self, from: Data(response.body)) else {
                Issue.record("not an object: \(response.text)")
                return .null
            }
            for key in ["lastEventId", "toast", "replay"] { members[key] = nil }
            return .object(members)
        }

        /// A live deck's fixture, downloaded, and its state document then.
        static func download() async throws -> (fixture: DeckFixture, document: HTTPTestResponse) {
            var result: (DeckFixture, HTTPTestResponse)?
            try await RoutedServer.run { server in
                #expect(await server.settled())
                let download = try await server.get("/api/state?format=fixture")
                try #require(download.status == 200, "\(download.text)")
                let disposition = try #require(download.header("Content-Disposition"))
                #expect(disposition.hasPrefix("attachment; filename=\"statedeck-"), "\(disposition)")
                let fixture = try DeckFixture.read(download.body, file: "moment.json")
                #expect(disposition == "attachment; filename=\"\(fixture.fileName)\"")
                result = (fixture, try await server.get("/api/state"))
            }
            return try #require(result)
        }

        @Test func aReplayServesTheMomentTheFixtureHolds() async throws {
            let (fixture, live) = try await Self.download()
            try await ReplayServer.run(fixture, debug: true) { replay in
                let state = try await replay.send("GET", "/api/state")
                #expect(state.status == 200)
                #expect(try Self.moment(state) == (try Self.moment(live)))
                let document = try JSONDecoder().decode(FixtureJSON.self, from: Data(state.body))
                #expect(document["replay"] == .object(["file": .string("moment.json"), "at": .string(fixture.at)]),
                        "the page is told it shows a replay, and of what")
                #expect(try JSONDecoder().decode(FixtureJSON.self, from: Data(live.body))["replay"] == nil, "a live deck is no replay")
                let panel = try await replay.send("GET", "/api/panels/api")
                #expect(try panel.decode(WirePanel.self).latestValidInfo?.summary == "API OK")
            }
        }

        @Test func aReplayRefusesEveryActionButDebugWith409() async throws {
            let (fixture, _) = try await Self.download()
            try await ReplayServer.run(fixture, debug: false) { replay in
                for (method, target, json) in [
                    ("POST", "/api/panels/api/retry", nil),
                    ("POST", "/api/panels/jobs/items/job-1/actions/restart", nil),
                    ("POST", "/api/maintenance", #"{"panels":["api"],"minutes":5,"reason":"Deploy"}"#),
                    ("POST", "/api/incidents", #"{"title":"Down","message":"Looking"}"#),
                ] as [(String, String, String?)] {
                    let response = try await replay.send(method, target, json: json)
                    #expect(response.status == 409, "\(target): \(response.text)")
                    #expect(response.errorCode == "conflict", "\(target)")
                    #expect(response.text.contains("this deck is a replay of moment.json"), "\(target)")
                }
                let debug = try await replay.send("POST", "/api/debug/panels/api/state", json: #"{"state":"loading"}"#)
                #expect(debug.status == 403)
                for target in ["/api/audit", "/api/notify/log"] {
                    let empty = try await replay.send("GET", target)
                    #expect(empty.status == 200 && empty.text == #"{"entries":[]}"#, "\(target): \(empty.text)")
                }
                #expect(try await replay.send("GET", "/api/incidents").text == #"{"incidents":[]}"#)
            }
        }

        @Test func withDebugAReplayForcesStatesFromTheFixturesAndLiveGivesItBack() async throws {
            let (fixture, live) = try await Self.download()
            try await ReplayServer.run(fixture, debug: true) { replay in
                // A forced loading keeps what the panel showed, and says nothing of a restart.
                let loading = try await replay.send("POST", "/api/debug/panels/api/state", json: #"{"state":"loading"}"#)
                let pinned = try loading.decode(WirePanel.self)
                #expect(pinned.isLoading && !pinned.isInitialLoading)
                #expect(pinned.latestValidInfo?.summary == "API OK")
                #expect(!pinned.restored)
                let forced = try await replay.send("POST", "/api/debug/panels/api/state", json: #"{"state":"error","error":{"kind":"timeout"}}"#)
                try #require(forced.status == 200, "\(forced.text)")
                let panel = try forced.decode(WirePanel.self)
                #expect(panel.latestValidError?.kind == .timeout)
                #expect(panel.latestInfo?.summary == "API OK")
                #expect(panel.debugPinned)
                let state = try await replay.send("GET", "/api/state").decode(WireState.self)
                #expect(state.panels.first { $0.id == "api" }?.latestValidError?.kind == .timeout)

                let unknown = try await replay.send("POST", "/api/debug/panels/nope/state", json: #"{"state":"loading"}"#)
                #expect(unknown.status == 404)
                let back = try await replay.send("POST", "/api/debug/panels/api/state", json: #"{"state":"live"}"#)
                #expect(back.status == 200)
                #expect(try Self.moment(try await replay.send("GET", "/api/state")) == (try Self.moment(live)))
            }
        }
    }
}
