import StateDeck
import TestSupport
import Testing

extension Routed {
    /// `POST /api/debug/panels/{id}/state`: every body form and bad bodies, asked of the responder
    /// (DebugRoutesStreamTests has what a stream shows).
    @Suite struct DebugRoutesTests {
        /// Posts `json` and decodes the answer, which must be 200 with the new `PanelState`;
        /// also checks it is what `GET /api/panels/{id}` now answers.
        static func force(_ server: some TestDeckServer, _ id: String, _ json: String) async throws -> WirePanel {
            let response = try await server.debug(id, json)
            try #require(response.status == 200, "\(json): \(response.status) \(response.text)")
            let panel = try response.decode(WirePanel.self)
            #expect(panel == (try await server.panel(id)), "\(json)")
            return panel
        }

        @Test func loadingPinsThePanelInLoading() async throws {
            try await RoutedServer.run { server in
                let panel = try await Self.force(server, "api", #"{"state":"loading"}"#)
                #expect(panel.phase == .loading)
                #expect(panel.isLoading)
                // Info was recorded since the last reset, so this is not the initial loading.
                #expect(!panel.isInitialLoading)
                #expect(panel.latestValidInfo?.summary == "API OK")
                #expect(panel.debugPinned)
            }
        }

        @Test func loadedWithInfoShowsThatInfo() async throws {
            try await RoutedServer.run { server in
                let panel = try await Self.force(
                    server, "api",
                    #"{"state":"loaded","info":{"summary":"Forced","fields":[{"label":"Disk","value":"91%"}],"items":[{"id":"a","title":"A"}]}}"#)
                #expect(panel.phase == .loaded)
                #expect(panel.latestValidInfo == Info(
                    summary: "Forced", fields: [Info.Field("Disk", "91%")], items: [Info.Item(id: "a", title: "A")]))
                #expect(panel.debugPinned)
            }
        }

        @Test func loadedWithoutInfoShowsThePlaceholderElseTheSample() async throws {
            try await RoutedServer.run { server in
                let db = try await Self.force(server, "db", #"{"state":"loaded"}"#)
                #expect(db.latestValidInfo == TestDeck.dbPlaceholder)
                #expect(db.debugPinned)
                let api = try await Self.force(server, "api", #"{"state":"loaded"}"#)
                #expect(api.latestValidInfo == Info.sample)
            }
        }

        @Test func errorWithoutKindIsUnknownAndWithKindUsesTheCatalogue() async throws {
            try await RoutedServer.run { server in
                let unknown = try await Self.force(server, "api", #"{"state":"error"}"#)
                #expect(unknown.phase == .error)
                #expect(unknown.latestValidError?.kind == .unknown)
                #expect(unknown.latestValidInfo == nil)
                #expect(unknown.debugPinned)

                for kind in ErrorKind.allCases {
                    let panel = try await Self.force(server, "api", #"{"state":"error","error":{"kind":"\#(kind.rawValue)"}}"#)
                    #expect(panel.latestValidError?.kind == kind)
                    #expect(panel.latestValidError?.title == kind.title)
                    let catalogue = kind.recoveryOptions.map(\.id)
                    #expect(panel.latestValidError?.options.map(\.id).suffix(catalogue.count).elementsEqual(catalogue) == true)
                }
            }
        }

        @Test func unknownErrorKindIs400NamingErrorKind() async throws {
            try await RoutedServer.run { server in
                let before = try await server.get("/api/panels/api").text
                let response = try await server.debug("api", #"{"state":"error","error":{"kind":"meteorStrike"}}"#)
                #expect(response.status == 400)
                #expect(response.apiError?.code == "bad_request")
                #expect(response.apiError?.message.contains("error.kind") == true, "\(response.text)")
                #expect(try await server.get("/api/panels/api").text == before)
            }
        }

        @Test func resetEmptiesTheHistory() async throws {
            try await RoutedServer.run { server in
                _ = try await Self.force(server, "jobs", #"{"modifyingIds":["job-1"]}"#)
                let panel = try await Self.force(server, "jobs", #"{"state":"reset"}"#)
                #expect(panel.phase == .initial)
                #expect(!panel.isLoading && !panel.isInitialLoading)
                #expect(panel.latestValidInfo == nil && panel.latestInfo == nil)
                #expect(panel.latestValidError == nil && panel.latestError == nil)
                #expect(panel.modifyingIds == nil)
                #expect(panel.since == nil, "no state left to date")
                #expect(panel.debugPinned)
                // After a reset, loading is the initial loading again.
                #expect(try await Self.force(server, "jobs", #"{"state":"loading"}"#).isInitialLoading)
            }
        }

        @Test func modifyingIdsAreSetAndAnEmptyListClearsThem() async throws {
            try await RoutedServer.run { server in
                let set = try await Self.force(server, "jobs", #"{"modifyingIds":["job-1","job-2"]}"#)
                #expect(set.modifyingIds == ["job-1", "job-2"])
                #expect(set.phase == .loaded)
                #expect(set.debugPinned)
                let cleared = try await Self.force(server, "jobs", #"{"modifyingIds":[]}"#)
                #expect(cleared.modifyingIds == nil)
            }
        }

        @Test func liveUnpinsAndLoadsForReal() async throws {
            try await RoutedServer.run { server in
                let api = server.scripts.api
                _ = try await Self.force(server, "api", #"{"state":"error","error":{"kind":"timeout"}}"#)
                api.hold()
                let runs = api.runs
                let live = try await Self.force(server, "api", #"{"state":"live"}"#)
                #expect(!live.debugPinned)
                #expect(live.phase == .loading)
                #expect(await eventually { api.waiting == 1 })
                #expect(api.runs == runs + 1)
                api.release()
                #expect(try await eventually { try await server.panel("api").phase == .loaded })
                #expect(try await server.state().toast?.message == "API is back")
            }
        }

        @Test func liveLeavesNoForcedModifyingIdsBehind() async throws {
            try await RoutedServer.run { server in
                _ = try await Self.force(server, "jobs", #"{"modifyingIds":["job-1"]}"#)
                #expect(try await server.debug("jobs", #"{"state":"live"}"#).status == 200)
                #expect(try await eventually { try await server.panel("jobs").phase == .loaded })
                let panel = try await server.panel("jobs")
                // No action runs on job-1, so nothing should show it as modifying or refuse one.
                let action = try await server.post("/api/panels/jobs/items/job-1/actions/restart")
                #expect(panel.modifyingIds == nil)
                #expect(action.status == 202, "\(action.text)")
            }
        }

        @Test(arguments: [
            (#"{"state":3}"#, "'state'"),
            (#"{"state":"sleeping"}"#, "'state'"),
            (#"{}"#, "'state'"),
            (#"{"modifyingIds":"job-1"}"#, "'modifyingIds'"),
            (#"{"modifyingIds":[1,2]}"#, "'modifyingIds[0]'"),
            (#"{"state":"loaded","info":{"summary":5}}"#, "'info.summary'"),
            (#"{"state":"loaded","info":{"items":[{"id":"a"}]}}"#, "'info.items[0].title'"),
            (#"{"state":"error","error":"timeout"}"#, "'error'"),
            (#"{"state":"error","error":{"kind":7}}"#, "'error.kind'"),
            // An error kind is checked even where the command does not use it.
            (#"{"state":"loading","error":{"kind":"meteorStrike"}}"#, "'error.kind'"),
            (#"{"modifyingIds":[],"error":{"kind":"meteorStrike"}}"#, "'error.kind'"),
            (#"{"state":"#, "malformed JSON"),
        ])
        func wrongTypesAre400NamingTheField(body: String, field: String) async throws {
            try await RoutedServer.run { server in
                let before = try await server.get("/api/panels/api").text
                let response = try await server.debug("api", body)
                #expect(response.status == 400)
                #expect(response.apiError?.code == "bad_request")
                #expect(response.apiError?.message.contains(field) == true, "\(response.text)")
                #expect(try await server.get("/api/panels/api").text == before)
            }
        }

        @Test func unknownPanelIs404() async throws {
            try await RoutedServer.run { server in
                let response = try await server.debug("nope", #"{"state":"loading"}"#)
                #expect(response.status == 404)
                #expect(response.apiError?.code == "not_found")
            }
        }
    }
}
