import DeckTestSupport
import Foundation
import StateDeck
import StateDeckServer
import Testing
import TestSupport

/// A server of a cluster holds the incidents and windows its store hands over, as the leader wrote
/// them, whole or one change at a time: its state document carries them, and its pages get the event.
@Suite struct ReplicaIncidentsTests {
    static let incidents = #"""
        [{"id":"20261127-1","title":"Slow","panels":["db"],"status":"identified","openedAt":"2026-11-27T10:00:00.000Z",\#
        "resolvedAt":null,"updates":[{"at":"2026-11-27T10:00:00.000Z","status":"investigating","message":"Looking","author":"ana"},\#
        {"at":"2026-11-27T10:05:00.500Z","status":"identified","message":"Disk \"full\"","author":"bo"}]}]
        """#

    @Test func aReplicaHoldsTheIncidentsTheStoreHandsOverAndPassesThemOn() async throws {
        let cluster = ReplicaCatchUpTests.HandFedCluster()
        var options = LiveDeckServer.Options()
        options.cluster = (cluster, { Deck("Fed") {} })
        try await LiveDeckServer.run(Deck("Fed") {}, options) { server in
            let member = try #require(cluster.member.current)
            let page = try await server.events()
            _ = try await page.opening()
            member.server.serve(event: "incidents", data: Self.incidents, id: 10, afterGap: false)
            let passed = try #require(try await page.nextEvent())
            #expect(passed.event == "incidents" && passed.data == Self.incidents)
            let state = try await server.get("/api/state")
            #expect(state.text.contains(#""incidents":"# + Self.incidents + #","toast""#), "as the leader wrote them")
            let document = try JSONSerialization.jsonObject(with: Data(state.body)) as? [String: Any]
            let held = try #require(document?["incidents"] as? [[String: Any]])
            #expect(held.map { $0["id"] as? String } == ["20261127-1"])

            member.server.serve(event: "incidents", data: #"[{"id":"x"}]"#, id: 11, afterGap: false)
            _ = try await page.nextEvent()
            #expect(try await server.get("/api/state").text.contains(Self.incidents), "one this version cannot read keeps the last")

            // One change at a time: a newer incident goes first (newest opened first), one that left goes.
            let newer = #"{"id":"20261127-2","title":"Down","panels":[],"status":"investigating","openedAt":"2026-11-27T11:00:00.000Z","resolvedAt":null,"updates":[{"at":"2026-11-27T11:00:00.000Z","status":"investigating","message":"Down","author":"ana"}]}"#
            member.server.serve(event: "incident", data: #"{"id":"20261127-2","incident":"# + newer + "}", id: 12, afterGap: false)
            let one = try #require(try await page.nextEvent())
            #expect(one.event == "incident")
            let both = try await server.get("/api/state").text
            #expect(both.contains(#""incidents":["# + newer + "," + Self.incidents.dropFirst()), "\(both)")
            member.server.serve(event: "incident", data: #"{"id":"20261127-1","incident":null}"#, id: 13, afterGap: false)
            _ = try await page.nextEvent()
            #expect(try await server.get("/api/state").text.contains(#""incidents":["# + newer + "]"))

            let window = #"{"id":"api-1","reason":"Swap","panels":[],"from":"2026-11-27T11:00:00.000Z","until":"2026-11-27T12:00:00.000Z","source":"api"}"#
            member.server.serve(event: "window", data: #"{"list":"active","key":"api-1@2026-11-27T11:00:00.000Z","window":"# + window + "}",
                             id: 14, afterGap: false)
            _ = try await page.nextEvent()
            #expect(try await server.get("/api/maintenance").text == #"{"active":["# + window + #"],"next":[]}"#)
            member.server.serve(event: "window", data: #"{"list":"active","key":"api-1@2026-11-27T11:00:00.000Z","window":null}"#,
                             id: 15, afterGap: false)
            _ = try await page.nextEvent()
            #expect(try await server.get("/api/maintenance").text == #"{"active":[],"next":[]}"#)
        }
    }
}
