import Foundation
import Testing
@testable import StateDeck

/// Each document against the exact JSON of PROTOCOL.md (compared with keys sorted).
@Suite struct JSONEncodingTests {
    static let date = Date(timeIntervalSince1970: 1_795_341_600.123)

    func expectJSON<Value: Encodable>(
        _ value: Value,
        _ expected: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let actual = try DeckJSON.makeEncoder().encode(value)
        #expect(try canonical(actual) == canonical(Data(expected.utf8)), sourceLocation: sourceLocation)
    }

    private func canonical(_ json: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func timestampsHaveMillisecondsInUTC() throws {
        #expect(DeckJSON.timestamp(Self.date) == "2026-11-22T10:00:00.123Z")
        #expect(DeckJSON.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(DeckJSON.timestamp(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(DeckJSON.timestamp(Date(timeIntervalSince1970: 951_825_599.9996)) == "2000-02-29T12:00:00.000Z")
        try expectJSON([Self.date], #"["2026-11-22T10:00:00.123Z"]"#)
    }

    @Test func infoLeavesOutWhatIsNil() throws {
        let info = Info(
            summary: "2 jobs",
            fields: [Info.Field("Queue", "default")],
            items: [Info.Item(id: "a", title: "Job A", actions: [Info.Action(id: "remove", label: "Remove", role: .destructive)])]
        )
        try expectJSON(info, """
            {"summary": "2 jobs", "fields": [{"label": "Queue", "value": "default"}],
             "items": [{"id": "a", "title": "Job A", "actions": [{"id": "remove", "label": "Remove", "role": "destructive"}]}]}
            """)
        try expectJSON(Info(image: "https://example.test/a.png", text: "log"), #"{"image": "https://example.test/a.png", "text": "log"}"#)
    }

    @Test func errorCard() throws {
        let card = ErrorPresenter().card(for: PanelError(.noNetwork, detail: "ENETUNREACH"), showPreloader: true)
        try expectJSON(card, """
            {"kind": "noNetwork", "title": "No network", "description": "\(ErrorKind.noNetwork.message)",
             "icon": "wifi-off", "showPreloader": true, "detail": "ENETUNREACH",
             "options": [{"id": "try-again", "label": "Try again", "role": "primary"},
                         {"id": "cancel", "label": "Dismiss", "role": "cancel"}]}
            """)
    }

    @Test func toast() throws {
        let toast = Toast(
            id: "toast-1", style: .error, message: "API: Timed out", panelId: "api", durationMs: 4000, position: .top,
            action: Toast.Action(id: "try-again", label: "Try again")
        )
        try expectJSON(toast, """
            {"id": "toast-1", "style": "error", "message": "API: Timed out", "panelId": "api", "durationMs": 4000,
             "position": "top", "action": {"id": "try-again", "label": "Try again"}}
            """)
        try expectJSON(Toast(id: "toast-2", style: .info, message: "Hi", durationMs: 4000, position: .bottom),
            #"{"id": "toast-2", "style": "info", "message": "Hi", "durationMs": 4000, "position": "bottom"}"#)
    }

    static let presentation = #"""
        {"initialLoading": {"type": "material"},
         "loadingAfterInfo": {"type": "horizontal", "position": "trailing", "contentOpacity": 1, "alignment": "center", "spacing": 8},
         "loadingAfterError": {"type": "overCurrentContent", "contentOpacity": 1, "alignment": "trailing"}}
        """#

    @Test func aNewPanelStateWritesEveryFieldWithNulls() async throws {
        let deck = Deck("D", configuration: Deck.Configuration(now: { Self.date }), panels: [Panel("api", title: "API") { .one }])
        try expectJSON(try await deck.panelState("api"), """
            {"id": "api", "title": "API", "group": null, "phase": "initial", "health": "unknown", "isInitialLoading": false, "isLoading": false,
             "latestValidInfo": null, "latestInfo": null, "latestValidError": null, "latestError": null,
             "latestNonLoading": null, "modifyingIds": null,
             "history": [{"state": "initial", "at": "2026-11-22T10:00:00.123Z"}],
             "presentation": \(Self.presentation), "placeholder": null, "retry": null, "debugPinned": false, "stale": false, "restored": false, "queued": false,
             "locations": null, "locationsSummary": null, "loadMs": null, "readings": null, "heartbeat": null, "maintenance": null,
             "dependsOn": [], "probableCauses": [], "flapping": null}
            """)
    }

    @Test func aFlappingStatusWritesItsSinceAsTheStateWritesTimes() throws {
        try expectJSON(FlappingStatus(since: Self.date, changes: 6, within: "10 min"),
                       #"{"since": "2026-11-22T10:00:00.123Z", "changes": 6, "within": "10 min"}"#)
    }

    @Test func aFailedPanelStateAfterInfo() throws {
        var history = ViewStateHistory(at: Self.date)
        history.setState(.loaded(Info(summary: "ok")), at: Self.date)
        history.setState(.error(PanelError(.timeout)), at: Self.date)
        history.modifyingIds = ["a"]
        var runtime = PanelRuntime(Panel("api", title: "API") { .one }.recovery(), at: Self.date)
        runtime.history = history
        runtime.retry = RetryStatus(attempt: 2, of: 3, nextAt: Self.date)
        runtime.latestLoadDuration = .microseconds(4_600)
        runtime.health = .down
        let options = #"[{"id": "try-again", "label": "Try again", "role": "primary"}, {"id": "cancel", "label": "Dismiss", "role": "cancel"}]"#
        let card = #"{"kind": "timeout", "title": "Timed out", "description": "\#(ErrorKind.timeout.message)", "icon": "clock", "showPreloader": false, "options": \#(options)}"#
        try expectJSON(runtime.state(), """
            {"id": "api", "title": "API", "group": null, "phase": "error", "health": "down", "isInitialLoading": false, "isLoading": false,
             "latestValidInfo": null, "latestInfo": {"summary": "ok"}, "latestValidError": \(card), "latestError": \(card),
             "latestNonLoading": {"error": \(card)}, "modifyingIds": ["a"],
             "history": [{"state": "initial", "at": "2026-11-22T10:00:00.123Z"}, {"state": "loaded", "at": "2026-11-22T10:00:00.123Z"},
                         {"state": "error", "at": "2026-11-22T10:00:00.123Z"}],
             "presentation": \(Self.presentation), "placeholder": null,
             "retry": {"attempt": 2, "of": 3, "nextAt": "2026-11-22T10:00:00.123Z"}, "debugPinned": false, "stale": false, "restored": false, "queued": false,
             "locations": null, "locationsSummary": null, "loadMs": 5, "readings": null, "heartbeat": null, "maintenance": null,
             "dependsOn": [], "probableCauses": [], "flapping": null}
            """)
    }

    @Test func aPanelCheckedFromSeveralPlacesListsTheDecksOwnFirstThenTheOthersByName() async throws {
        let deck = Deck("My stack", configuration: Deck.Configuration(now: { Self.date }),
                        panels: [Panel("api", title: "API") { .one }])
        try await deck.push(.loaded(Info(summary: "ok")), panel: "api")
        #expect(try await deck.panelState("api").locations == nil, "one place only: no locations")
        await deck.setRemoteLocations(["api": [
            PanelLocation(name: "us-east", health: .noData, since: Self.date, uptime: 99.5),
            PanelLocation(name: "eu-west", health: .down, summary: "Timed out", since: Self.date, uptime: 12.25),
            PanelLocation(name: "local", health: .down),
        ], "gone": [PanelLocation(name: "eu-west", health: .up)]])
        let state = try await deck.panelState("api")
        try expectJSON(state.locations, """
            [{"name": "local", "health": "up", "summary": "ok", "since": "2026-11-22T10:00:00.123Z", "uptime": null},
             {"name": "eu-west", "health": "down", "summary": "Timed out", "since": "2026-11-22T10:00:00.123Z", "uptime": 12.25},
             {"name": "us-east", "health": "noData", "summary": null, "since": "2026-11-22T10:00:00.123Z", "uptime": 99.5}]
            """)
        #expect(state.locationsSummary == "Down from eu-west only; no data from us-east")
        await deck.setRemoteLocations([:])
        #expect(try await deck.panelState("api").locations == nil)
    }

    @Test func latestNonLoadingPrefersInfo() throws {
        try expectJSON(PanelState.Outcome.info(Info(summary: "ok")), #"{"info": {"summary": "ok"}}"#)
    }

    @Test func everyLoadingPresentation() throws {
        try expectJSON(LoadingPresentation.vertical(position: .top, contentOpacity: 0.5, alignment: .center, spacing: 32),
            #"{"type": "vertical", "position": "top", "contentOpacity": 0.5, "alignment": "center", "spacing": 32}"#)
        try expectJSON(LoadingPresentation.overCurrentContent(contentOpacity: 0.5, alignment: .bottomTrailing),
            #"{"type": "overCurrentContent", "contentOpacity": 0.5, "alignment": "bottomTrailing"}"#)
        try expectJSON(LoadingPresentation.redacted, #"{"type": "redacted"}"#)
        try expectJSON(LoadingPresentation.custom(message: "Warming up…"), #"{"type": "custom", "message": "Warming up…"}"#)
    }

    @Test func snapshotAndRetryResult() async throws {
        let deck = Deck("My stack", configuration: Deck.Configuration(now: { Self.date }), panels: [])
        try expectJSON(await deck.snapshot(), #"{"title": "My stack", "groups": [], "panels": [], "toast": null, "maintenance": {"active": [], "next": []}, "incidents": []}"#)
        try expectJSON(RetryResult(coalesced: true), #"{"coalesced": true}"#)
    }
}
