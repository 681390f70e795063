import Foundation
import StateDeck
import StateDeckServer
import TestSupport
import Testing

/// A real `DeckServer` over the test deck, bound to a free port on loopback.
///
/// `LiveServer.run { server in … }` starts it, waits until every panel has loaded once, runs the
/// body and always stops it. Requests go over raw sockets, off the cooperative pool.
final class LiveServer: Sendable {
    struct Options: Sendable {
        var debug = true
        var pingInterval: Duration = .seconds(15)
        var streamCapacity = 256 * 1024
        var token: AccessToken?
    }

    let scripts: TestDeck
    let deckServer: DeckServer
    let folder: PublicFolder
    let port: Int

    var deck: Deck { deckServer.deck }

    /// Open SSE streams.
    var liveStreamCount: Int { deckServer.liveStreamCount }

    private init(options: Options) async throws {
        scripts = TestDeck()
        folder = try PublicFolder()
        var configuration = ServerConfiguration(publicDirectory: folder.url)
        configuration.port = 0
        configuration.debug = options.debug
        configuration.pingInterval = options.pingInterval
        configuration.streamCapacity = options.streamCapacity
        configuration.token = options.token
        do {
            deckServer = try await DeckServer(deck: scripts.make(), configuration: configuration)
            port = try await deckServer.start()
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
        let live = try await LiveServer(options: options)
        do {
            try #require(await live.settled(), "the first loads did not end")
            try await body(live)
        } catch {
            await live.stop()
            throw error
        }
        await live.stop()
    }

    /// Stops the server; safe to call again.
    func stop() async {
        scripts.releaseAll()
        await deckServer.stop()
        folder.remove()
    }

    /// True once every panel shows what it loaded.
    func settled() async -> Bool {
        await eventually {
            await deck.snapshot().panels.allSatisfy { $0.phase == .loaded }
        }
    }

    // MARK: Requests

    /// Sends a well-formed request and reads the answer (no body read for HEAD).
    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> HTTPTestResponse {
        let port = port
        return try await offPool {
            try HTTPTestClient.request(method, path, port: port, headers: headers, body: body)
        }
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPTestResponse {
        try await request("GET", path, headers: headers)
    }

    /// POSTs `json` (as is, so tests can send malformed JSON) with its content type.
    func post(_ path: String, json: String? = nil) async throws -> HTTPTestResponse {
        try await request(
            "POST", path, headers: json == nil ? [] : [("Content-Type", "application/json")],
            body: json.map { Array($0.utf8) } ?? [])
    }

    /// Sends `raw` bytes exactly as given, so no client normalizes them, and reads one answer.
    func raw(_ raw: String) async throws -> HTTPTestResponse {
        let port = port
        return try await offPool { try HTTPTestClient.send(raw, port: port) }
    }

    /// Sends `method target` with the target exactly as given, and a `Host` naming this server
    /// (so the request gate lets it through to routing), then reads one answer.
    func raw(_ method: String, target: String) async throws -> HTTPTestResponse {
        try await raw("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
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
    func events(lastEventID: String? = nil) async throws -> EventClient {
        let port = port
        let headers = lastEventID.map { [("Last-Event-ID", $0)] } ?? []
        return try await offPool {
            EventClient(try SSEClient(port: port, path: "/events", headers: headers))
        }
    }

    /// Opens `count` streams at once.
    func events(count: Int) async throws -> [EventClient] {
        let port = port
        return try await offPool {
            try SSEClient.connect(count: count, port: port, path: "/events").map(EventClient.init)
        }
    }

    /// Pushes info on a panel through the deck's own API: one `panel` event, no toast.
    func push(_ summary: String, text: String? = nil, panel: String = "api") async throws {
        try await deck.push(.loaded(Info(summary: summary, text: text)), panel: panel)
    }
}
