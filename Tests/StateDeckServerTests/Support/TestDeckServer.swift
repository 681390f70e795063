import DeckTestSupport
import StateDeck
import StateDeckHistory
import StateDeckServer
import TestSupport
import Testing

/// How the test deck's server is configured, live or router-level.
struct TestDeckServerOptions: Sendable {
    var debug = true
    var pingInterval: Duration = .seconds(15)
    var streamCapacity = 256 * 1024
    var token: AccessToken?
    var access: AccessList?
    var history: (any HistoryStore)?

    /// The same, as `LiveDeckServer` takes them.
    var deckServerOptions: LiveDeckServer.Options {
        var options = LiveDeckServer.Options()
        options.debug = debug
        options.pingInterval = pingInterval
        options.streamCapacity = streamCapacity
        options.token = token
        options.access = access
        options.history = history
        return options
    }
}

/// The scripted test deck served: live (`LiveServer`, over sockets) or router-level
/// (`RoutedServer`, its responder asked directly). The suites' requests, decoded, are the same
/// either way; `run` starts it, waits until every panel has loaded once, runs the body and always
/// stops it.
protocol TestDeckServer: Sendable {
    typealias Options = TestDeckServerOptions

    var scripts: TestDeck { get }
    var deckServer: DeckServer { get }
    /// The port `Host` and `Origin` must name.
    var port: Int { get }

    init(options: Options) async throws
    /// Stops the server; safe to call again.
    func stop() async

    /// Sends a well-formed request, with this server's `Host`, and reads the answer (no body read
    /// for HEAD, live).
    func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPTestResponse
}

extension TestDeckServer {
    var deck: Deck { deckServer.deck }

    /// Starts a server, waits for the first loads, runs `body`, then stops the server.
    static func run(_ options: Options = Options(), _ body: (Self) async throws -> Void) async throws {
        try await stopping(try await Self(options: options), with: { await $0.stop() }) { server in
            try #require(await server.settled(), "the first loads did not end")
            try await body(server)
        }
    }

    /// True once every panel shows what it loaded.
    func settled() async -> Bool {
        await eventually {
            await deck.snapshot().panels.allSatisfy { $0.phase == .loaded }
        }
    }

    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> HTTPTestResponse {
        try await send(method, path, headers: headers, body: body)
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPTestResponse {
        try await send("GET", path, headers: headers, body: nil)
    }

    /// POSTs `json` (as is, so tests can send malformed JSON) with its content type.
    func post(_ path: String, json: String? = nil) async throws -> HTTPTestResponse {
        try await send("POST", path, headers: json == nil ? [] : [("Content-Type", "application/json")],
                       body: Array((json ?? "").utf8))
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

    /// Pushes info on a panel through the deck's own API: one `panel` event, no toast.
    func push(_ summary: String, text: String? = nil, panel: String = "api") async throws {
        try await deck.push(.loaded(Info(summary: summary, text: text)), panel: panel)
    }
}

/// The test deck's server asked without a socket (`RoutedDeckServer`).
final class RoutedServer: TestDeckServer {
    let scripts: TestDeck
    let routed: RoutedDeckServer

    var deckServer: DeckServer { routed.server }
    var port: Int { routed.port }

    init(options: Options) async throws {
        scripts = TestDeck()
        routed = try await RoutedDeckServer(deck: scripts.make(), options: options.deckServerOptions)
    }

    func stop() async {
        scripts.releaseAll()
        await routed.stop()
    }

    func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPTestResponse {
        try await routed.request(method, path, headers: [("Host", routed.hostHeader)] + headers, body: body)
    }
}
