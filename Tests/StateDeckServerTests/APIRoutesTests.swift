import Foundation
import StateDeck
import TestSupport
import Testing

extension Routed {
    /// Every non-debug route of PROTOCOL.md, with good and bad input, asked of the responder.
    @Suite struct APIRoutesTests {
        static let panelKeys: Set<String> = [
            "id", "title", "group", "phase", "health", "isInitialLoading", "isLoading", "latestValidInfo", "latestInfo",
            "latestValidError", "latestError", "latestNonLoading", "modifyingIds", "history",
            "presentation", "placeholder", "retry", "debugPinned", "stale", "restored", "queued", "locations", "locationsSummary",
            "loadMs", "readings", "heartbeat", "maintenance", "dependsOn", "probableCauses", "flapping",
        ]

        // MARK: GET /api/state and /api/panels/{id}

        @Test func stateDocumentHasTitleDebugLastEventIdPanelsInOrderAndToast() async throws {
            try await RoutedServer.run { server in
                let response = try await server.get("/api/state")
                #expect(response.status == 200)
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                #expect(response.header("Cache-Control") == "no-store")
                #expect(jsonKeys(response.text) == ["title", "debug", "settings", "groups", "lastEventId", "panels", "notice", "maintenance", "incidents", "toast"])

                let state = try response.decode(WireState.self)
                #expect(state.title == TestDeck.title)
                #expect(state.debug)
                #expect(state.panels.map(\.id) == TestDeck.panelIds)
                #expect(state.panels.map(\.title) == ["API", "Jobs", "Database"])
                #expect(state.panels.allSatisfy { $0.phase == .loaded && !$0.debugPinned })
                #expect(state.toast == nil)

                // lastEventId is the id of the newest event (that a new client's snapshot carries it
                // is EventsTests' to check, over a stream).
                #expect(state.lastEventId == server.deckServer.lastEventID)
            }
        }

        @Test func stateDocumentIsTheSameUntilTheStateChangesThenTheNewOne() async throws {
            try await RoutedServer.run { server in
                let first = try await server.get("/api/state")
                #expect(try await server.get("/api/state").body == first.body)

                server.scripts.api.then(.failure(PanelError(.timeout)))
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                #expect(try await eventually { try await server.state().panels[0].phase == .error })
                let before = try first.decode(WireState.self)
                let after = try await server.state()
                #expect(after.lastEventId > before.lastEventId)
                #expect(before.panels[0].phase == .loaded)
            }
        }

        @Test func stateDocumentCarriesTheCurrentToast() async throws {
            try await RoutedServer.run { server in
                server.scripts.api.then(.failure(PanelError(.timeout)))
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                #expect(try await eventually { try await server.panel("api").phase == .error })

                let toast = try #require(try await server.state().toast)
                #expect(toast.style == .error)
                #expect(toast.panelId == "api")
                #expect(toast.message == "API: \(ErrorKind.timeout.title)")
                #expect(toast.action == Toast.Action(id: "try-again", label: "Try again"))
            }
        }

        @Test func panelRouteAnswersOnePanelAnd404ForAnUnknownOne() async throws {
            try await RoutedServer.run { server in
                let response = try await server.get("/api/panels/jobs")
                #expect(response.status == 200)
                #expect(jsonKeys(response.text) == Self.panelKeys)
                let panel = try response.decode(WirePanel.self)
                #expect(panel == (try await server.state()).panels[1])
                #expect(panel.latestValidInfo?.items?.map(\.id) == ["job-1", "job-2"])
                #expect(panel.latestValidInfo?.items?.first?.actions?.map(\.id) == ["restart"])

                let unknown = try await server.get("/api/panels/nope")
                #expect(unknown.status == 404)
                #expect(unknown.apiError?.code == "not_found")
                #expect(unknown.apiError?.message.contains("'nope'") == true)
            }
        }

        // MARK: POST /api/panels/{id}/retry

        @Test func retryIsAcceptedAndAWhileInFlightRetryIsCoalesced() async throws {
            try await RoutedServer.run { server in
                let api = server.scripts.api
                api.hold()
                let first = try await server.post("/api/panels/api/retry")
                #expect(first.status == 202)
                #expect(first.text == #"{"accepted":true,"coalesced":false}"#)
                #expect(await eventually { api.waiting == 1 })
                #expect(try await server.panel("api").isLoading)

                let second = try await server.post("/api/panels/api/retry")
                #expect(second.status == 202)
                #expect(second.text == #"{"accepted":true,"coalesced":true}"#)

                api.release()
                #expect(try await eventually { try await server.panel("api").phase == .loaded })
                // The first load at start, then one for both retries: never run twice.
                #expect(api.runs == 2)
            }
        }

        @Test func retryOfAnUnknownPanelIs404AndOfAPinnedOneReleasesItAndRetries() async throws {
            try await RoutedServer.run { server in
                let unknown = try await server.post("/api/panels/nope/retry")
                #expect(unknown.status == 404)
                #expect(unknown.apiError?.code == "not_found")

                #expect(try await server.debug("api", #"{"state":"loading"}"#).status == 200)
                let pinned = try await server.post("/api/panels/api/retry")
                #expect(pinned.status == 202)
                #expect(try await eventually {
                    let panel = try await server.panel("api")
                    return !panel.debugPinned && panel.phase == .loaded
                })
                #expect(server.scripts.api.runs == 2)
            }
        }

        @Test func theStateDocumentCarriesWhatThePageMustNotCopy() async throws {
            try await RoutedServer.run { server in
                let document = try await server.get("/api/state")
                let settings = try #require(try JSONSerialization.jsonObject(with: Data(document.body)) as? [String: Any])["settings"]
                    as? [String: Any]
                #expect(settings?["pingIntervalMs"] as? Int == 15_000)
                #expect(settings?["errorKinds"] as? [String] == ErrorKind.allCases.map(\.rawValue))
                let toast = try #require(settings?["toast"] as? [String: Any])
                #expect(toast["durationMs"] as? Int == 4_000 && toast["position"] as? String == "top")
                let presentation = try #require(settings?["presentation"] as? [String: [String: Any]])
                #expect(presentation["loadingAfterInfo"]?["type"] as? String == "horizontal")
                let types = try #require(settings?["presentationTypes"] as? [[String: Any]])
                #expect(types.map { $0["type"] as? String } == ["material", "horizontal", "vertical", "overCurrentContent", "redacted", "custom"])
                #expect(types[2]["position"] as? String == "bottom" && types[2]["alignment"] as? String == "leading")
            }
        }

        // MARK: POST /api/panels/{id}/recover

        @Test func recoverRunsAnOptionOfTheCurrentCard() async throws {
            try await RoutedServer.run { server in
                let api = server.scripts.api
                api.then(.failure(PanelError(.serverError)))
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                #expect(try await eventually { try await server.panel("api").phase == .error })
                let card = try #require(try await server.panel("api").latestValidError)
                #expect(card.options.map(\.id) == ["try-again", "cancel"])

                let unknown = try await server.post("/api/panels/api/recover", json: #"{"option":"reboot"}"#)
                #expect(unknown.status == 404)
                #expect(unknown.apiError?.code == "not_found")
                #expect(unknown.apiError?.message.contains("'reboot'") == true)

                let recovered = try await server.post("/api/panels/api/recover", json: #"{"option":"try-again"}"#)
                #expect(recovered.status == 202)
                #expect(recovered.text == #"{"accepted":true}"#)
                #expect(try await eventually { try await server.panel("api").phase == .loaded })
                #expect(api.runs == 3)
            }
        }

        @Test func dismissingTheCardShowsTheLastInfoStale() async throws {
            try await RoutedServer.run { server in
                server.scripts.api.then(.failure(PanelError(.serverError)))
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                #expect(try await eventually { try await server.panel("api").phase == .error })

                let dismissed = try await server.post("/api/panels/api/recover", json: #"{"option":"cancel"}"#)
                #expect(dismissed.status == 202)
                let panel = try await server.panel("api")
                #expect(panel.latestValidError == nil)
                #expect(panel.latestValidInfo?.summary == "API OK")
                #expect(panel.stale)
                #expect(try await server.state().toast?.style == .info)
            }
        }

        @Test func aButtonOnADebugForcedCardReleasesThePinAndRunsItsRealFlow() async throws {
            try await RoutedServer.run { server in
                #expect(try await server.debug("api", #"{"state":"error","error":{"kind":"timeout"}}"#).status == 200)
                let dismiss = try await server.post("/api/panels/api/recover", json: #"{"option":"cancel"}"#)
                #expect(dismiss.status == 202)
                let dismissed = try await server.panel("api")
                #expect(dismissed.latestValidError == nil && dismissed.stale && !dismissed.debugPinned)

                #expect(try await server.debug("api", #"{"state":"error","error":{"kind":"timeout"}}"#).status == 200)
                let retry = try await server.post("/api/panels/api/recover", json: #"{"option":"try-again"}"#)
                #expect(retry.status == 202)
                #expect(try await eventually {
                    let panel = try await server.panel("api")
                    return !panel.debugPinned && panel.phase == .loaded && !panel.stale
                })
                #expect(server.scripts.api.runs == 2)
            }
        }

        @Test func recoverWithoutACardIs409AndOnAnUnknownPanel404() async throws {
            try await RoutedServer.run { server in
                let noCard = try await server.post("/api/panels/api/recover", json: #"{"option":"try-again"}"#)
                #expect(noCard.status == 409)
                #expect(noCard.apiError?.code == "conflict")

                let unknown = try await server.post("/api/panels/nope/recover", json: #"{"option":"try-again"}"#)
                #expect(unknown.status == 404)
                #expect(unknown.apiError?.code == "not_found")
            }
        }

        // MARK: POST /api/panels/{id}/items/{itemId}/actions/{actionId}

        @Test func itemActionIsAcceptedAndTheItemIsModifyingWhileItRuns() async throws {
            try await RoutedServer.run { server in
                let restart = server.scripts.restart
                restart.hold()
                let accepted = try await server.post("/api/panels/jobs/items/job-1/actions/restart")
                #expect(accepted.status == 202)
                #expect(accepted.text == #"{"accepted":true}"#)
                #expect(try await server.panel("jobs").modifyingIds == ["job-1"])

                let again = try await server.post("/api/panels/jobs/items/job-1/actions/restart")
                #expect(again.status == 409)
                #expect(again.apiError?.code == "conflict")

                #expect(try await server.post("/api/panels/jobs/items/job-2/actions/restart").status == 202)
                #expect(try await server.panel("jobs").modifyingIds == ["job-1", "job-2"])

                let loadsBefore = server.scripts.jobs.runs
                restart.release()
                #expect(try await eventually {
                    let panel = try await server.panel("jobs")
                    return panel.modifyingIds == nil && panel.phase == .loaded
                })
                // An action that returns no info reloads the panel.
                #expect(server.scripts.jobs.runs > loadsBefore)
                let toast = try #require(try await server.state().toast)
                #expect(toast.style == .success)
                #expect(toast.message.hasPrefix("Restart Job"))
            }
        }

        @Test func failedItemActionToastsAndClearsTheItem() async throws {
            try await RoutedServer.run { server in
                server.scripts.restart.then(.failure(PanelError(.commandFailed)))
                #expect(try await server.post("/api/panels/jobs/items/job-2/actions/restart").status == 202)
                let toasted = try await eventually { try await server.state().toast?.style == Toast.Style.error }
                #expect(toasted)
                #expect(try await server.state().toast?.message == "Restart Job 2 failed: \(ErrorKind.commandFailed.title)")
                #expect(try await server.panel("jobs").modifyingIds == nil)
            }
        }

        @Test(arguments: [
            ("/api/panels/nope/items/job-1/actions/restart", "'nope'"),
            ("/api/panels/jobs/items/job-9/actions/restart", "'job-9'"),
            ("/api/panels/jobs/items/job-1/actions/delete", "'delete'"),
            ("/api/panels/api/items/job-1/actions/restart", "'job-1'"),
        ])
        func unknownPanelItemOrActionIs404(path: String, named: String) async throws {
            try await RoutedServer.run { server in
                let response = try await server.post(path)
                #expect(response.status == 404)
                #expect(response.apiError?.code == "not_found")
                #expect(response.apiError?.message.contains(named) == true, "\(response.text)")
                #expect(try await server.panel("jobs").modifyingIds == nil)
            }
        }
    }
}
