import StateDeck
import TestSupport
import Testing

/// What a client compares of one event: the fields the page draws from.
enum Seen: Equatable, CustomStringConvertible {
    case panel(Panel)
    case toast(style: Toast.Style, message: String, action: String?)

    struct Panel: Equatable {
        var id: String
        var phase: ViewState.Phase
        var isLoading: Bool
        var isInitialLoading: Bool
        var info: String?
        var errorKind: ErrorKind?
        var errorTitle: String?
        var options: [String]?
        var debugPinned: Bool
    }

    /// What `event` shows a client holding `panels`, which it updates.
    init(_ event: SSEEvent, holding panels: inout WirePanels) throws {
        switch event.event {
        case "panel":
            let panel = try panels.apply(event)
            self = .panel(Panel(
                id: panel.id, phase: panel.phase, isLoading: panel.isLoading,
                isInitialLoading: panel.isInitialLoading, info: panel.latestValidInfo?.summary,
                errorKind: panel.latestValidError?.kind, errorTitle: panel.latestValidError?.title,
                options: panel.latestValidError?.options.map(\.id), debugPinned: panel.debugPinned))
        case "toast":
            let toast = try event.decode(Toast.self)
            self = .toast(style: toast.style, message: toast.message, action: toast.action?.id)
        default:
            throw WireDecodingError.notJSON("unexpected event \(event.event ?? "message")")
        }
    }

    var description: String {
        switch self {
        case .panel(let panel):
            "panel \(panel.id) \(panel.phase) loading:\(panel.isLoading) initial:\(panel.isInitialLoading) "
                + "info:\(panel.info ?? "-") error:\(panel.errorKind.map(\.rawValue) ?? "-") pinned:\(panel.debugPinned)"
        case .toast(let style, let message, let action):
            "toast \(style) \"\(message)\" action:\(action ?? "-")"
        }
    }
}

extension Live {
    /// The events a page receives while a panel is forced through loading, loaded and error,
    /// then goes live and recovers with a retry.
    @Suite struct GoldenSequenceTests {
        private static let serverError = ErrorKind.serverError

        private static func api(
            _ phase: ViewState.Phase, info: String? = nil, error: Bool = false, pinned: Bool
        ) -> Seen {
            .panel(Seen.Panel(
                id: "api", phase: phase, isLoading: phase == .loading, isInitialLoading: false,
                info: info, errorKind: error ? serverError : nil, errorTitle: error ? serverError.title : nil,
                options: error ? ["try-again", "cancel"] : nil, debugPinned: pinned))
        }

        @Test func forcedLoadingLoadedErrorThenLiveAndRetryBackToLoaded() async throws {
            try await LiveServer.run { server in
                let client = try await server.events()
                defer { client.close() }
                let snapshot = try #require(try await client.opening().first)
                let snapshotID = try #require(snapshot.number)
                var panels = try WirePanels(snapshot: snapshot)
                var received: [SSEEvent] = []
                /// Reads the events one step causes, in order.
                func read(_ count: Int) async throws {
                    for _ in 0..<count {
                        received.append(try #require(try await client.nextEvent(), "stream ended"))
                    }
                }

                #expect(try await server.debug("api", #"{"state":"loading"}"#).status == 200)
                try await read(1)
                #expect(try await server.debug("api", #"{"state":"loaded","info":{"summary":"Forced"}}"#).status == 200)
                try await read(1)
                #expect(try await server.debug("api", #"{"state":"error","error":{"kind":"serverError"}}"#).status == 200)
                try await read(2)

                // Live loads for real: the loader fails again (an automatic failure after an
                // error does not toast), then a manual retry succeeds.
                server.scripts.api.then(.failure(PanelError(.serverError)), .success(Info(summary: "Back")))
                #expect(try await server.debug("api", #"{"state":"live"}"#).status == 200)
                try await read(2)
                let retry = try await server.post("/api/panels/api/retry")
                #expect(retry.text == #"{"accepted":true,"coalesced":false}"#)
                try await read(3)

                let expected: [Seen] = [
                    Self.api(.loading, info: "API OK", pinned: true),
                    Self.api(.loaded, info: "Forced", pinned: true),
                    Self.api(.error, error: true, pinned: true),
                    .toast(style: .error, message: "API: \(Self.serverError.title)", action: "try-again"),
                    Self.api(.loading, error: true, pinned: false),
                    Self.api(.error, error: true, pinned: false),
                    Self.api(.loading, error: true, pinned: false),
                    Self.api(.loaded, info: "Back", pinned: false),
                    .toast(style: .success, message: "API is back", action: nil),
                ]
                let seen = try received.map { try Seen($0, holding: &panels) }
                #expect(seen == expected, "\n\(seen.map(\.description).joined(separator: "\n"))")
                #expect(received.map(\.number) == (1...9).map { snapshotID + UInt64($0) })
                // The success toast replaces the failure toast in place.
                let toastIDs = try received.filter { $0.event == "toast" }.map { try $0.decode(Toast.self).id }
                #expect(toastIDs.count == 2 && toastIDs[0] == toastIDs[1])

                // Nothing else follows, and the state document agrees with the last events.
                try await server.push("Marker", panel: "db")
                #expect(try await client.nextEvent()?.number == snapshotID + 10)
                let state = try await server.state()
                #expect(state.panels[0].latestValidInfo?.summary == "Back")
                #expect(state.toast?.message == "API is back")
            }
        }
    }
}
