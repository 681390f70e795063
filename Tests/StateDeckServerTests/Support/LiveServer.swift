import DeckTestSupport
import Foundation
import StateDeck
import StateDeckHistory
import StateDeckServer
import TestSupport
import Testing

/// The live dashboard (`LiveDeckServer`) over the scripted test deck and the hermetic page folder,
/// with the requests these suites make, decoded.
///
/// `LiveServer.run { server in … }` starts it, waits until every panel has loaded once, runs the
/// body and always stops it.
final class LiveServer: Sendable {
    struct Options: Sendable {
        var debug = true
        var pingInterval: Duration = .seconds(15)
        var streamCapacity = 256 * 1024
        var token: AccessToken?
        var history: (any HistoryStore)?
    }

    let scripts: TestDeck
    let live: LiveDeckServer
    let folder: PublicFolder

    var port: Int { live.port }
    var deck: Deck { live.deck }
    var deckServer: DeckServer { live.server }

    /// Open SSE streams.
    var liveStreamCount: Int { live.liveStreamCount }

    private init(options: Options) async throws {
        scripts = TestDeck()
        folder = try PublicFolder()
        var liveOptions = LiveDeckServer.Options()
        liveOptions.debug = options.debug
        liveOptions.pingInterval = options.pingInterval
        liveOptions.streamCapacity = options.streamCapacity
        liveOptions.token = options.token
        liveOptions.history = options.history
        do {
            live = try await LiveDeckServer(deck: scripts.make(), options: liveOptions, publicDirectory: folder.url)
        } catch {
            folder.remove()
            throw error
        }
    }

    /// Starts a server, waits for the first loads, runs `body`, then stops the server.
    static func run(
        _ options: Options = Options(),
        _ body: (LiveServer) async throws -> Void
    ) async throws {
        let server = try await LiveServer(options: options)
        do {
            try #require(await server.settled(), "the first loads did not end")
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Stops the server; safe to call again.
    func stop() async {
        scripts.releaseAll()
        await live.stop()
        folder.remove()
    }

    /// True once every panel shows what it loaded.
    func settled() async -> Bool {
        await eventually {
            await deck.snapshot().panels.allSatisfy { $0.phase == .loaded }
        }
    }

    // MARK: Requests

    /// Sends a well-formed request, with this server's `Host`, and reads the answer (no body read
    /// for HEAD).
    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> HTTPTestResponse {
        try await live.request(method, path, headers: [("Host", live.hostHeader)] + headers, body: body)
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPTestResponse {
        try await live.get(path, headers: headers)
    }

    /// POSTs `json` (as is, so tests can send malformed JSON) with its content type.
    func post(_ path: String, json: String? = nil) async throws -> HTTPTestResponse {
        try await live.post(path, json: json)
    }

    /// Sends `raw` bytes exactly as given, so no client normalizes them, and reads one answer.
    func raw(_ raw: String) async throws -> HTTPTestResponse {
        try await live.raw(raw)
    }

    /// Sends `method target` with the target exactly as given, and a `Host` naming this server
    /// (so the request gate lets it through to routing), then reads one answer.
    func raw(_ method: String, target: String) async throws -> HTTPTestResponse {
        try await raw("\(method) \(target) HTTP/1.1\r\nHost: \(live.hostHeader)\r\nConnection: close\r\n\r\n")
    }

    /// `GET /api/state`, decoded.
    func state() async throws -> WireState {
        let response = try await get("/api/state")
        try #require(response.status == 200)
        return try response.decode(WireState.self)
    }

    /// `GET /api/panels/{id}`, decoded.
    func panel(_ id: String) async throws -> WirePanel {
        let response = try await get("/api/panels/\(id)")
        try #require(response.status == 200)
        return try response.decode(WirePanel.self)
    }

    /// `POST /api/debug/panels/{id}/state` with `json`.
    func debug(_ id: String, _ json: String) async throws -> HTTPTestResponse {
        try await post("/api/debug/panels/\(id)/state", json: json)
    }

    /// Opens `/events`, with `Last-Event-ID` when given.
    func events(lastEventID: String? = nil) async throws -> AsyncSSEClient {
        try await live.events(lastEventID: lastEventID)
    }

    /// Opens `count` streams at once.
    func events(count: Int) async throws -> [AsyncSSEClient] {
        try await live.events(count: count)
    }

    /// Pushes info on a panel through the deck's own API: one `panel` event, no toast.
    func push(_ summary: String, text: String? = nil, panel: String = "api") async throws {
        try await deck.push(.loaded(Info(summary: summary, text: text)), panel: panel)
    }
}
