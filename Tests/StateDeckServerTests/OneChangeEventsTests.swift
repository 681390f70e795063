import Foundation
import StateDeck
import StateDeckHistory
import TestSupport
import Testing

extension Live {
    /// An incident or a window changed is sent to every page as that one item (`incident`,
    /// `window`), whatever the lists hold: the event is the item the answer carried, wrapped.
    @Suite struct OneChangeEventsTests {
        /// The next event named `name`, skipping the panel and toast events around it.
        static func next(_ name: String, _ client: AsyncSSEClient) async throws -> SSEEvent? {
            while let event = try await client.nextEvent() {
                if event.event == name { return event }
            }
            return nil
        }

        /// `text` read as JSON, to compare with another read so (the answers sort their keys, the
        /// stream does not).
        static func json(_ text: String) throws -> NSDictionary {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        }

        @Test func anIncidentChangedIsSentAloneHoweverManyAreOpen() async throws {
            try await LiveServer.run { server in
                for number in 1...30 {
                    let opened = try await server.post("/api/incidents", json: #"{"title": "Number \#(number)", "message": "\#(String(repeating: "m", count: 2_000))"}"#)
                    try #require(opened.status == 201)
                }
                let client = try await server.events()
                defer { client.close() }
                _ = try await client.opening()
                let listed = try await server.get("/api/incidents?limit=1").text
                let id = try #require(listed.firstMatch(of: /"id":"([^"]+)"/)?.1)
                let updated = try await server.post("/api/incidents/\(id)/updates", json: #"{"status": "identified", "message": "Found"}"#)
                try #require(updated.status == 200)
                let event = try #require(try await Self.next("incident", client))
                #expect(try Self.json(event.data) == Self.json(#"{"id":"\#(id)","incident":"# + updated.text + "}"),
                        "the incident as answered, alone")
                let state = try await server.get("/api/state").text
                #expect(event.data.utf8.count * 20 < state.utf8.count, "one of the 30, not the list")

                let opened = try await server.post("/api/incidents", json: #"{"title": "One more", "message": "m"}"#)
                let one = try #require(try await Self.next("incident", client))
                #expect(try Self.json(one.data)["incident"] as? NSDictionary == Self.json(opened.text))
            }
        }

        @Test func aWindowStartedOrEndedIsSentAloneHoweverManyHold() async throws {
            try await LiveServer.run { server in
                for number in 1...20 {
                    try #require(try await server.post("/api/maintenance", json: #"{"panels": ["api"], "minutes": 30, "reason": "Work \#(number)"}"#).status == 201)
                }
                let client = try await server.events()
                defer { client.close() }
                _ = try await client.opening()
                let started = try await server.post("/api/maintenance", json: #"{"panels": ["db"], "minutes": 30, "reason": "Disk"}"#)
                let from = try #require(started.text.firstMatch(of: /"from":"([^"]+)"/)?.1)
                let key = "api-21@\(from)"
                let began = try #require(try await Self.next("window", client))
                #expect(try Self.json(began.data) == Self.json(#"{"list":"active","key":"\#(key)","window":"# + started.text + "}"))
                try #require(try await server.request("DELETE", "/api/maintenance/api-21").status == 200)
                let ended = try #require(try await Self.next("window", client))
                #expect(ended.data == #"{"list":"active","key":"\#(key)","window":null}"#, "it left the windows holding")
                let listed = try await server.get("/api/maintenance").text
                #expect(listed.contains("api-20") && !listed.contains("api-21"))
            }
        }
    }
}
