import Foundation
import StateDeck
import TestSupport
import Testing

extension Routed {
    /// What an operator may write, asked of the responder: each text field within its characters
    /// and bytes (422 `over_limit`), and open incidents, an incident's updates and their text, and
    /// windows started by hand within their counts (422 `too_many`), each refusal naming its limit.
    @Suite struct OperatorLimitsTests {
        struct Refusal: Decodable {
            struct Body: Decodable {
                var code: String
                var message: String
                var limit: Limit
            }

            struct Limit: Decodable, Equatable {
                var field: String?
                var characters: Int?
                var bytes: Int?
                var what: String?
                var count: Int?
            }

            var error: Body
        }

        struct Opened: Decodable {
            var id: String
            var updates: [Update]

            struct Update: Decodable {
                var status: String
            }
        }

        /// `fields` as a JSON object.
        static func json(_ fields: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        }

        /// `count` characters of `base` with `marks` acute accents on each: one character of
        /// `1 + 2 * marks` bytes.
        static func marked(_ count: Int, base: String = "e", marks: Int) -> String {
            String(repeating: base + String(repeating: "\u{0301}", count: marks), count: count)
        }

        static let overLimit: [(field: String, text: String, limit: TextLimit)] = [
            ("title", String(repeating: "t", count: 201), .title),
            ("title", String(repeating: "日", count: 201), .title),
            ("title", marked(3, marks: 200), .title),
            ("message", String(repeating: "m", count: 5_001), .message),
            ("message", marked(50, marks: 200), .message),
        ]

        @Test(arguments: overLimit)
        func anIncidentTextOverItsLimitIs422NamingIt(field: String, text: String, limit: TextLimit) async throws {
            try await RoutedServer.run { server in
                var fields = ["title": "Slow answers", "message": "Looking"]
                fields[field] = text
                let response = try await server.post("/api/incidents", json: try Self.json(fields))
                #expect(response.status == 422)
                let refusal = try response.decode(Refusal.self).error
                #expect(refusal.code == "over_limit")
                #expect(refusal.limit == Refusal.Limit(field: field, characters: limit.characters, bytes: limit.bytes))
                #expect(refusal.message == "field '\(field)' must have at most \(limit)")
                #expect(try await server.get("/api/incidents").text == #"{"incidents":[]}"#)
            }
        }

        @Test func textsAtTheirLimitsAreKeptWhole() async throws {
            try await RoutedServer.run { server in
                // 200 characters of 5 bytes each is 1,000 bytes: at both limits.
                let title = Self.marked(200, marks: 2)
                let message = Self.marked(4_000, marks: 2)
                let response = try await server.post("/api/incidents", json: try Self.json(["title": title, "message": message]))
                #expect(response.status == 201)
                let kept = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
                #expect(kept["title"] as? String == title)
                let reason = String(repeating: "r", count: 200)
                let window = try await server.post("/api/maintenance", json: try Self.json(["panels": ["api"], "minutes": 5, "reason": reason]))
                #expect(window.status == 201)
            }
        }

        @Test func anUpdateMessageOverItsLimitIs422() async throws {
            try await RoutedServer.run { server in
                let opened = try await server.post("/api/incidents", json: #"{"title": "t", "message": "m"}"#).decode(Opened.self)
                let response = try await server.post("/api/incidents/\(opened.id)/updates",
                                                     json: try Self.json(["status": "identified", "message": Self.marked(40, marks: 250)]))
                #expect(response.status == 422)
                #expect(try response.decode(Refusal.self).error.limit == Refusal.Limit(field: "message", characters: 5_000, bytes: 20_000))
                #expect(try await server.get("/api/incidents/\(opened.id)").decode(Opened.self).updates.count == 1)
            }
        }

        @Test(arguments: [String(repeating: "r", count: 201), marked(2, marks: 500)])
        func aMaintenanceReasonOverItsLimitIs422(reason: String) async throws {
            try await RoutedServer.run { server in
                let response = try await server.post("/api/maintenance",
                                                     json: try Self.json(["panels": ["api"], "minutes": 30, "reason": reason]))
                #expect(response.status == 422)
                let refusal = try response.decode(Refusal.self).error
                #expect(refusal.code == "over_limit")
                #expect(refusal.limit == Refusal.Limit(field: "reason", characters: 200, bytes: 1_000))
                #expect(try await server.get("/api/maintenance").text == #"{"active":[],"next":[]}"#)
            }
        }

        @Test func the51stOpenIncidentIs422UntilOneIsResolved() async throws {
            try await RoutedServer.run { server in
                var ids: [String] = []
                for number in 1...50 {
                    let opened = try await server.post("/api/incidents", json: #"{"title": "Number \#(number)", "message": "m"}"#)
                    try #require(opened.status == 201)
                    ids.append(try opened.decode(Opened.self).id)
                }
                let refused = try await server.post("/api/incidents", json: #"{"title": "One more", "message": "m"}"#)
                #expect(refused.status == 422)
                let refusal = try refused.decode(Refusal.self).error
                #expect(refusal.code == "too_many")
                #expect(refusal.limit == Refusal.Limit(what: "open incidents", count: 50))
                #expect(refusal.message == "There may be at most 50 open incidents: resolve one first.")

                let resolved = try await server.post("/api/incidents/\(ids[0])/updates", json: #"{"status": "resolved", "message": "done"}"#)
                #expect(resolved.status == 200)
                #expect(try await server.post("/api/incidents", json: #"{"title": "One more", "message": "m"}"#).status == 201)
            }
        }

        @Test func anIncidentTakes100UpdatesTheLastOnlyResolvingIt() async throws {
            try await RoutedServer.run { server in
                let opened = try await server.post("/api/incidents", json: #"{"title": "t", "message": "m"}"#).decode(Opened.self)
                for number in 2...99 {
                    let update = try await server.post("/api/incidents/\(opened.id)/updates",
                                                       json: #"{"status": "monitoring", "message": "Update \#(number)"}"#)
                    try #require(update.status == 200)
                }
                let refused = try await server.post("/api/incidents/\(opened.id)/updates", json: #"{"status": "monitoring", "message": "more"}"#)
                #expect(refused.status == 422)
                #expect(try refused.decode(Refusal.self).error.limit == Refusal.Limit(what: "updates of an incident", count: 100))
                let resolved = try await server.post("/api/incidents/\(opened.id)/updates", json: #"{"status": "resolved", "message": "done"}"#)
                #expect(resolved.status == 200)
                #expect(try resolved.decode(Opened.self).updates.count == 100)
            }
        }

        @Test func anIncidentsMessagesTogetherStopAt100000BytesButItCanBeResolved() async throws {
            try await RoutedServer.run { server in
                // 5,000 characters of 3 bytes: 15,000 bytes, six of them 90,000.
                let message = String(repeating: "日", count: 5_000)
                let opening = try await server.post("/api/incidents", json: #"{"title": "t", "message": "\#(message)"}"#)
                try #require(opening.status == 201, "\(opening.text)")
                let opened = try opening.decode(Opened.self)
                for _ in 2...6 {
                    let update = try await server.post("/api/incidents/\(opened.id)/updates", json: #"{"status": "monitoring", "message": "\#(message)"}"#)
                    try #require(update.status == 200)
                }
                let refused = try await server.post("/api/incidents/\(opened.id)/updates", json: #"{"status": "monitoring", "message": "\#(message)"}"#)
                #expect(refused.status == 422)
                let refusal = try refused.decode(Refusal.self).error
                #expect(refusal.code == "too_many")
                #expect(refusal.limit == Refusal.Limit(what: "bytes of an incident's messages", count: 100_000))
                let resolved = try await server.post("/api/incidents/\(opened.id)/updates", json: #"{"status": "resolved", "message": "\#(message)"}"#)
                #expect(resolved.status == 200)
                #expect(try resolved.decode(Opened.self).updates.count == 7, "resolving goes beyond")
            }
        }

        @Test func the51stWindowStartedByHandIs422UntilOneEnds() async throws {
            try await RoutedServer.run { server in
                for number in 1...50 {
                    let started = try await server.post("/api/maintenance", json: #"{"panels": ["api"], "minutes": 30, "reason": "Work \#(number)"}"#)
                    try #require(started.status == 201)
                }
                let refused = try await server.post("/api/maintenance", json: #"{"panels": ["db"], "minutes": 30, "reason": "More"}"#)
                #expect(refused.status == 422)
                let refusal = try refused.decode(Refusal.self).error
                #expect(refusal.code == "too_many")
                #expect(refusal.limit == Refusal.Limit(what: "maintenance windows started by hand and holding", count: 50))
                #expect(try await server.request("DELETE", "/api/maintenance/api-7").status == 200)
                #expect(try await server.post("/api/maintenance", json: #"{"panels": ["db"], "minutes": 30, "reason": "More"}"#).status == 201)
            }
        }
    }
}
