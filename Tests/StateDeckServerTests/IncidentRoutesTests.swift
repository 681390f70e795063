import Foundation
import StateDeck
import StateDeckSQLite
import TestSupport
import Testing

extension Routed {
    /// `POST /api/incidents`, `POST /api/incidents/{id}/updates`, `GET /api/incidents` and
    /// `GET /api/incidents/{id}`, asked of the responder.
    @Suite struct IncidentRoutesTests {
        struct Update: Decodable, Equatable {
            var at: String
            var status: String
            var message: String
            var author: String
        }

        struct WireIncident: Decodable, Equatable {
            var id: String
            var title: String
            var panels: [String]
            var status: String
            var openedAt: String
            var resolvedAt: String?
            var updates: [Update]
        }

        struct Listing: Decodable {
            var incidents: [WireIncident]
        }

        struct StateIncidents: Decodable {
            var incidents: [WireIncident]
        }

        @Test func anIncidentIsOpenedUpdatedAndResolvedByTheCaller() async throws {
            try await RoutedServer.run { server in
                let created = try await server.post("/api/incidents", json: #"""
                    {"title": "  Slow answers ", "panels": ["db", "api"], "status": "investigating", "message": "Looking"}
                    """#)
                #expect(created.status == 201)
                #expect(jsonKeys(created.text) == ["id", "title", "panels", "status", "openedAt", "resolvedAt", "updates"])
                let opened = try created.decode(WireIncident.self)
                #expect(opened.title == "Slow answers")
                #expect(opened.panels == ["db", "api"])
                #expect(opened.status == "investigating")
                #expect(opened.resolvedAt == nil)
                #expect(opened.updates == [Update(at: opened.openedAt, status: "investigating", message: "Looking", author: "local")])
                #expect(opened.id.range(of: #"^\d{8}-1$"#, options: .regularExpression) != nil)
                #expect(try await server.get("/api/state").decode(StateIncidents.self).incidents == [opened])

                let updated = try await server.post("/api/incidents/\(opened.id)/updates",
                                                    json: #"{"status": "identified", "message": "Disk full"}"#)
                #expect(updated.status == 200)
                #expect(try updated.decode(WireIncident.self).updates.map(\.status) == ["investigating", "identified"])
                let resolved = try await server.post("/api/incidents/\(opened.id)/updates",
                                                     json: #"{"status": "resolved", "message": "Cleaned"}"#)
                let done = try resolved.decode(WireIncident.self)
                #expect(done.status == "resolved")
                #expect(done.resolvedAt == done.updates.last?.at)
                #expect(try await server.get("/api/incidents/\(opened.id)").decode(WireIncident.self) == done)
                #expect(try await server.get("/api/state").decode(StateIncidents.self).incidents == [done],
                        "resolved within a day: still in the state")

                let again = try await server.post("/api/incidents/\(opened.id)/updates",
                                                  json: #"{"status": "monitoring", "message": "More"}"#)
                #expect(again.status == 409)
                #expect(again.errorCode == "conflict")
            }
        }

        @Test func theListIsNewestFirstUpToItsLimit() async throws {
            try await RoutedServer.run { server in
                for title in ["One", "Two", "Three"] {
                    _ = try await server.post("/api/incidents", json: #"{"title": "\#(title)", "message": "m"}"#)
                }
                let all = try await server.get("/api/incidents").decode(Listing.self).incidents
                #expect(all.map(\.title) == ["Three", "Two", "One"])
                #expect(all.allSatisfy { $0.panels.isEmpty && $0.status == "investigating" }, "an announcement by default")
                #expect(try await server.get("/api/incidents?limit=2").decode(Listing.self).incidents.map(\.title) == ["Three", "Two"])
                let bad = try await server.get("/api/incidents?limit=0")
                #expect(bad.status == 400)
                #expect(bad.text.contains("limit must be a whole number from 1 to 500, not '0'"))
            }
        }

        @Test func anUnknownIncidentIs404() async throws {
            try await RoutedServer.run { server in
                let read = try await server.get("/api/incidents/20200101-1")
                #expect(read.status == 404)
                #expect(read.errorCode == "not_found")
                #expect(read.text.contains("There is no incident '20200101-1'."))
                let update = try await server.post("/api/incidents/20200101-1/updates", json: #"{"status": "monitoring", "message": "m"}"#)
                #expect(update.status == 404)
            }
        }

        @Test(arguments: [
            ("", "the request needs a JSON body"),
            (#"{"message": "m"}"#, "field 'title' is missing"),
            (#"{"title": " ", "message": "m"}"#, "field 'title' must not be empty"),
            (#"{"title": "t", "message": "\n "}"#, "field 'message' must not be empty"),
            (#"{"title": "t"}"#, "field 'message' is missing"),
            (#"{"title": "t", "message": "m", "status": "broken"}"#,
             "field 'status' must be one of investigating, identified, monitoring, resolved"),
            (#"{"title": "t", "message": "m", "status": "resolved"}"#, "field 'status' cannot be resolved for a new incident"),
            (#"{"title": "t", "message": "m", "panels": ["api", "nope"]}"#, "field 'panels' names no panel 'nope'"),
            (#"{"title": "t", "message": "m", "panels": "api"}"#, "field 'panels' must be an array"),
        ])
        func aBadBodyIsRefusedNamingTheField(body: String, message: String) async throws {
            try await RoutedServer.run { server in
                let response = try await server.post("/api/incidents", json: body.isEmpty ? nil : body)
                #expect(response.status == 400)
                #expect(response.errorCode == "bad_request")
                #expect(response.text.contains(message), "\(response.text)")
                #expect(try await server.get("/api/incidents").decode(Listing.self).incidents.isEmpty)
            }
        }

        @Test(arguments: [
            (#"{"message": "m"}"#, "field 'status' is missing"),
            (#"{"status": "identified"}"#, "field 'message' is missing"),
            (#"{"status": "identified", "message": "  "}"#, "field 'message' must not be empty"),
            (#"{"status": "fixed", "message": "m"}"#, "field 'status' must be one of"),
        ])
        func aBadUpdateIsRefusedNamingTheField(body: String, message: String) async throws {
            try await RoutedServer.run { server in
                let opened = try await server.post("/api/incidents", json: #"{"title": "t", "message": "m"}"#).decode(WireIncident.self)
                let response = try await server.post("/api/incidents/\(opened.id)/updates", json: body)
                #expect(response.status == 400)
                #expect(response.text.contains(message), "\(response.text)")
                #expect(try await server.get("/api/incidents/\(opened.id)").decode(WireIncident.self) == opened)
            }
        }

        @Test func aKillAfterTheAnswerKeepsTheIncidentAsAnswered() async throws {
            let fixture = HistoryFolderFixture()
            let store = try fixture.open()
            var options = RoutedServer.Options()
            options.history = store
            var answered: WireIncident?
            try await RoutedServer.run(options) { server in
                let opened = try await server.post("/api/incidents", json: #"{"title": "t", "panels": ["api"], "message": "m"}"#)
                    .decode(WireIncident.self)
                answered = try await server.post("/api/incidents/\(opened.id)/updates", json: #"{"status": "monitoring", "message": "n"}"#)
                    .decode(WireIncident.self)
                // Killed here: the history as it is now on disk, never closed, is what the next start reads.
                let crashed = HistoryFolderFixture()
                try FileManager.default.createDirectory(atPath: crashed.folder, withIntermediateDirectories: true)
                for suffix in ["", "-wal"] {
                    let file = "/" + SQLiteHistoryStore.fileName + suffix
                    if FileManager.default.fileExists(atPath: fixture.folder + file) {
                        try FileManager.default.copyItem(atPath: fixture.folder + file, toPath: crashed.folder + file)
                    }
                }
                options.history = try crashed.open()
                withExtendedLifetime(crashed) {}
                try await RoutedServer.run(options) { restarted in
                    let listed = try await restarted.get("/api/incidents").decode(Listing.self).incidents
                    #expect(listed == [try #require(answered)])
                    #expect(try await restarted.get("/api/state").decode(StateIncidents.self).incidents == listed)
                }
                options.history?.close()
            }
            store.close()
        }
    }
}
