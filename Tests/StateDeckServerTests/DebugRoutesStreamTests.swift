import StateDeck
import TestSupport
import Testing

extension Live {
    /// The debug route as a stream shows it: what a pinned panel and a server without debug
    /// publish (nothing), the next event a marker pushed after the requests.
    @Suite struct DebugRoutesStreamTests {
        @Test func pinnedPanelIgnoresTheResultOfTheLoadItInterrupted() async throws {
            try await LiveServer.run { server in
                let api = server.scripts.api
                api.hold()
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                #expect(await eventually { api.waiting == 1 })
                _ = try await Routed.DebugRoutesTests.force(server, "api", #"{"state":"loaded","info":{"summary":"Pinned"}}"#)
                // The pin cancelled the load; were it still running, it would now succeed.
                api.release()
                // Nothing a late load could publish replaces the pinned state.
                let marker = try await server.events()
                defer { marker.close() }
                _ = try await marker.nextEvent()
                try await server.push("Marker", panel: "db")
                #expect(try await marker.nextEvent()?.decode(WirePanel.self).id == "db")
                #expect(try await server.panel("api").latestValidInfo?.summary == "Pinned")
            }
        }

        @Test func withoutDebugEveryFormIs403AndNothingChanges() async throws {
            var options = LiveServer.Options()
            options.debug = false
            try await LiveServer.run(options) { server in
                #expect(try await server.state().debug == false)
                let before = try await server.get("/api/state").text
                let client = try await server.events()
                defer { client.close() }
                #expect(try await client.nextEvent()?.event == "snapshot")

                for body in [
                    #"{"state":"loading"}"#, #"{"state":"loaded"}"#, #"{"state":"loaded","info":{"summary":"x"}}"#,
                    #"{"state":"error"}"#, #"{"state":"error","error":{"kind":"timeout"}}"#,
                    #"{"state":"reset"}"#, #"{"modifyingIds":["job-1"]}"#, #"{"state":"live"}"#,
                    #"{"state":3}"#, "",
                ] {
                    for id in ["api", "jobs", "nope"] {
                        let response = try await server.debug(id, body)
                        #expect(response.status == 403, "\(id) \(body)")
                        #expect(response.apiError?.code == "forbidden", "\(id) \(body)")
                    }
                }
                #expect(try await server.get("/api/state").text == before)
                // No event was published: the next one is the marker pushed now.
                try await server.push("Marker", panel: "db")
                let next = try #require(try await client.nextEvent())
                #expect(try next.decode(WirePanel.self).latestValidInfo?.summary == "Marker")
            }
        }
    }
}
