import EventStream
import FoundationEssentials
import Locking
import MicroHTTP
import StateDeck

/// Serves a moment of a deck frozen (`statedeck --replay FILE`), as a held copy serves a deck
/// another process runs, except that nothing runs it: no source loads, no history is written,
/// nothing is notified. The server never runs its deck, so every action comes here:
///
/// | request | answer |
/// | --- | --- |
/// | `POST /api/debug/panels/{id}/state` (with `--debug`) | the debug state, forced on the panel as the fixture has it; `live` puts the fixture's version back |
/// | `GET /api/incidents`, `/api/incidents/{id}` | the fixture's incidents |
/// | `GET /api/audit`, `/api/notify/log` | no entries: a replay signs and tells nothing |
/// | any other action | 409 `conflict`: this deck is a replay |
public final class ReplayHost: DeckHost, EventRelay {
    public let fixture: DeckFixture
    /// The file it was read from, as the 409 answers name it.
    private let file: String
    private let held = Locked<StateMirror?>(nil)
    /// The panels a debug state was forced on, as the held copy holds them now.
    private let forced = Locked<[String: ExportedPanel]>([:])

    public init(fixture: DeckFixture, file: String) {
        self.fixture = fixture
        self.file = file
    }

    /// The deck a replay server is made with: the fixture's title and no panel, never run.
    public static func idleDeck(_ fixture: DeckFixture) -> Deck {
        Deck(fixture.title, panels: [])
    }

    /// Nothing runs the deck, so nothing is relayed.
    public var relay: any EventRelay { self }

    public func relay(event: String, data: @autoclosure () -> String, panel: String?) {}

    public func join(_ server: HostedServer) async throws {
        server.held.freeze(fixture, file: file)
        held.withLock { $0 = server.held }
    }

    public var isRunningDeck: Bool { false }

    public func settled() async -> ForwardedAction.Answer? { nil }

    public func leave() async {}

    public func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer {
        let request: HTTPRequest
        do {
            request = try action.request()
        } catch {
            return answer(.apiError(.badRequest, code: "bad_request", message: "\(error)"))
        }
        let path = request.pathSegments
        switch (request.method, path) {
        case (.post, _) where path.count == 5 && path[0...2] == ["api", "debug", "panels"] && path[4] == "state":
            return await debug(request, panel: path[3])
        case (.get, ["api", "incidents"]):
            return ForwardedAction.Answer(status: 200, body: Array(#"{"incidents":"#.utf8) + FixtureJSON.array(fixture.incidents).bytes + [UInt8(ascii: "}")])
        case (.get, _) where path.count == 3 && path[0...1] == ["api", "incidents"]:
            guard let incident = fixture.incidents.first(where: { $0["id"] == .string(path[2]) }) else {
                return answer(DeckError.unknownIncident(path[2]).response)
            }
            return ForwardedAction.Answer(status: 200, body: incident.bytes)
        case (.get, ["api", "audit"]), (.get, ["api", "notify", "log"]):
            return ForwardedAction.Answer(status: 200, body: Array(#"{"entries":[]}"#.utf8))
        default:
            return answer(.apiError(
                .conflict, code: "conflict",
                message: "this deck is a replay of \(file) at \(fixture.at): nothing runs, so it takes no actions"))
        }
    }

    /// Forces a debug state on a panel as the replay shows it, in a deck of that panel alone made
    /// for the purpose: the state starts from what the panel showed, and no source runs.
    private func debug(_ request: HTTPRequest, panel id: String) async -> ForwardedAction.Answer {
        guard let held = held.withLock({ $0 }), let original = fixture.heldPanel(id) else {
            return answer(DeckError.unknownPanel(id).response)
        }
        let command: DebugCommand
        do {
            command = try DebugBody.command(from: request)
        } catch {
            return answer(.apiError(.badRequest, code: "bad_request", message: "\(error)"))
        }
        guard command != .live else {
            forced.withLock { $0[id] = nil }
            held.replaceFrozen(original)
            return ForwardedAction.Answer(status: 200, body: original.document)
        }
        let current = forced.withLock { $0[id] } ?? original
        let shown = FixturePanel((try? JSONDecoder().decode(FixtureJSON.self, from: Data(current.compact))) ?? .null)
        var declaration = Panel(id, title: shown.title) { throw CancellationError() }
        if let group = shown.group { declaration = declaration.group(PanelGroup(group, title: fixture.groupTitle(group))) }
        if let placeholder = shown.placeholder { declaration = declaration.placeholder(placeholder) }
        let memory = (current.record ?? shown.memory).memory(restored: shown.restored)
        let scratch = Deck(fixture.title, panels: [declaration], memories: [id: memory])
        do {
            let state = try await scratch.debug(command, panel: id)
            if let panel = held.exported(state) {
                forced.withLock { $0[id] = panel }
                held.replaceFrozen(panel)
            }
            return ForwardedAction.Answer(status: 200, body: Array(try DeckJSON.makeEncoder().encode(state)))
        } catch let error as DeckError {
            return answer(error.response)
        } catch {
            return answer(.apiError(.internalServerError, code: "internal", message: "\(error)"))
        }
    }

    private func answer(_ response: HTTPResponse) -> ForwardedAction.Answer {
        ForwardedAction.Answer(response: response)
    }
}

extension DeckFixture {
    /// The title of group `id`, or nil for a group the fixture does not list.
    func groupTitle(_ id: String) -> String? {
        deck.groups.first { $0.id == id }?.title
    }
}
