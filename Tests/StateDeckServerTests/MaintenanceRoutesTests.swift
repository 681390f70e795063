import Foundation
import StateDeck
import TestSupport
import Testing

extension Routed {
    /// `POST /api/maintenance`, `DELETE /api/maintenance/{id}` and `GET /api/maintenance`, asked of
    /// the responder.
    @Suite struct MaintenanceRoutesTests {
        struct Window: Decodable, Equatable {
            var id: String
            var reason: String
            var panels: [String]
            var from: String
            var until: String
            var source: String
            var schedule: String?
        }

        struct Listing: Decodable {
            var active: [Window]
            var next: [Window]
        }

        struct Marked: Decodable {
            struct Mark: Decodable, Equatable {
                var id: String
                var reason: String
                var until: String
            }

            var maintenance: Mark?
        }

        static func milliseconds(_ timestamp: String) throws -> Int64 {
            let date = try #require(try? Date(timestamp, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)))
            return Int64((date.timeIntervalSince1970 * 1000).rounded())
        }

        @Test func aWindowStartedByHandMarksItsPanelsUntilItIsEnded() async throws {
            try await RoutedServer.run { server in
                let started = try await server.post("/api/maintenance",
                                                    json: #"{"panels": ["api", "db"], "minutes": 30, "reason": "  Upgrade  "}"#)
                #expect(started.status == 201)
                let window = try started.decode(Window.self)
                #expect(window.id == "api-1")
                #expect(window.reason == "Upgrade")
                #expect(window.panels == ["api", "db"])
                #expect(window.source == "api")
                #expect(window.schedule == nil)
                #expect(try Self.milliseconds(window.until) - Self.milliseconds(window.from) == 30 * 60_000)
                #expect(jsonKeys(started.text) == ["id", "reason", "panels", "from", "until", "source"])

                let listing = try await server.get("/api/maintenance").decode(Listing.self)
                #expect(listing.active == [window])
                #expect(listing.next.isEmpty)
                #expect(try await server.get("/api/panels/api").decode(Marked.self).maintenance
                    == Marked.Mark(id: "api-1", reason: "Upgrade", until: window.until))
                #expect(try await server.get("/api/panels/jobs").decode(Marked.self).maintenance == nil)
                let state = try JSONSerialization.jsonObject(with: Data(try await server.get("/api/state").body)) as? [String: Any]
                let maintenance = try #require(state?["maintenance"] as? [String: Any])
                #expect((maintenance["active"] as? [Any])?.count == 1)

                let ended = try await server.request("DELETE", "/api/maintenance/api-1")
                #expect(ended.status == 200)
                let endedWindow = try ended.decode(Window.self)
                #expect(try Self.milliseconds(endedWindow.until) < Self.milliseconds(window.until))
                #expect(try await server.get("/api/maintenance").decode(Listing.self).active.isEmpty)
                #expect(try await server.get("/api/panels/api").decode(Marked.self).maintenance == nil)

                let again = try await server.request("DELETE", "/api/maintenance/api-1")
                #expect(again.status == 404)
                #expect(again.errorCode == "not_found")
            }
        }

        @Test(arguments: [
            ("", "the request needs a JSON body"),
            (#"[1]"#, "the request body must be a JSON object"),
            (#"{"minutes": 30, "reason": "x"}"#, "field 'panels' or 'groups' must name at least one panel or group"),
            (#"{"panels": [], "groups": [], "minutes": 30, "reason": "x"}"#, "field 'panels' or 'groups' must name at least one"),
            (#"{"panels": ["api"], "minutes": 0, "reason": "x"}"#, "field 'minutes' must be from 1 to 10080 (a week)"),
            (#"{"panels": ["api"], "minutes": 10081, "reason": "x"}"#, "field 'minutes' must be from 1 to 10080"),
            (#"{"panels": ["api"], "minutes": "30", "reason": "x"}"#, "field 'minutes' must be a number"),
            (#"{"panels": ["api"], "minutes": 30}"#, "field 'reason' is missing"),
            (#"{"panels": ["api"], "minutes": 30, "reason": " "}"#, "field 'reason' must not be empty"),
            (#"{"panels": ["nope"], "minutes": 30, "reason": "x"}"#, "field 'panels' names no panel 'nope'"),
            (#"{"groups": ["web"], "minutes": 30, "reason": "x"}"#, "field 'groups' names no group 'web'"),
            (#"{"panels": ["api"], "minutes": 30, "minutes": 31, "reason": "x"}"#, "field 'minutes' is given twice"),
        ])
        func aBadBodyIsRefusedNamingTheField(body: String, message: String) async throws {
            try await RoutedServer.run { server in
                let response = try await server.post("/api/maintenance", json: body.isEmpty ? nil : body)
                #expect(response.status == 400)
                #expect(response.errorCode == "bad_request")
                #expect(response.text.contains(message), "\(response.text)")
                #expect(try await server.get("/api/maintenance").decode(Listing.self).active.isEmpty)
            }
        }
    }
}
