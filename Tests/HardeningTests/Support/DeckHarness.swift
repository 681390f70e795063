import Foundation
import StateDeck
import StateDeckServer
import TestSupport
import Testing

/// A real `DeckServer` bound to a free port, over a deck the test declares and a hermetic page
/// folder. `DeckHarness.run { harness in … }` starts it, runs the body and always stops it.
final class DeckHarness: Sendable {
    struct Options: Sendable {
        var host = "127.0.0.1"
        var token: AccessToken?
        var debug = false
        var pingInterval: Duration = .seconds(15)
        var streamCapacity = 256 * 1024
    }

    let server: DeckServer
    let port: Int
    let host: String
    let folder: URL

    var deck: Deck { server.deck }

    private init(deck: Deck, options: Options) async throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("statedeck-hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, content) in Self.files {
            try Data(content.utf8).write(to: folder.appendingPathComponent(name))
        }
        var configuration = ServerConfiguration(publicDirectory: folder)
        configuration.host = options.host
        configuration.port = 0
        configuration.debug = options.debug
        configuration.token = options.token
        configuration.pingInterval = options.pingInterval
        configuration.streamCapacity = options.streamCapacity
        host = options.host
        server = try await DeckServer(deck: deck, configuration: configuration, logger: quietLogger)
        port = try await server.start()
    }

    /// The page folder's files.
    static let files = [
        "index.html": "<!doctype html><title>StateDeck hardening</title><script src=\"app.js\"></script>\n",
        "app.js": "console.log('hardening');\n",
    ]

    /// Starts a server over `deck`, runs `body`, then stops the server (also when `body` throws).
    static func run(
        _ deck: Deck, _ options: Options = Options(), _ body: (DeckHarness) async throws -> Void
    ) async throws {
        let harness = try await DeckHarness(deck: deck, options: options)
        do {
            try await body(harness)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `Host: <host>:<port>` as a browser on this machine would send it.
    var hostHeader: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// Sends `raw` as is on a fresh connection and reads one answer.
    func raw(_ raw: String, bodyless: Bool = false) async throws -> Reply {
        let (port, host) = (port, host)
        return try await offPool { Reply(try HTTPTestClient.send(raw, port: port, host: host, bodyless: bodyless)) }
    }

    /// Sends a request with exactly these header lines (no `Host` added) and reads one answer.
    func request(
        _ method: String, _ target: String, headers: [(String, String)], body: [UInt8]? = nil
    ) async throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if let body {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        let bytes = Array(head.utf8) + (body ?? [])
        let (port, host) = (port, host)
        return try await offPool {
            let connection = try HTTPTestConnection(host: host, port: port)
            defer { connection.close() }
            try connection.send(bytes)
            // The stream's head is all a test of /events needs.
            if target.hasPrefix("/events") {
                let (status, headers) = try connection.readHead(until: .now + defaultWait)
                return Reply(status: status, headers: headers, body: [])
            }
            return Reply(try connection.readResponse(bodyless: method == "HEAD"))
        }
    }

    /// A request a page of this server would send: the right `Host`, nothing else added.
    func get(_ target: String, headers: [(String, String)] = []) async throws -> Reply {
        try await request("GET", target, headers: [("Host", hostHeader)] + headers)
    }

    func post(_ target: String, json: String? = nil, headers: [(String, String)] = []) async throws -> Reply {
        try await request(
            "POST", target,
            headers: [("Host", hostHeader)] + headers + (json == nil ? [] : [("Content-Type", "application/json")]),
            body: Array((json ?? "").utf8))
    }

    /// The panel's state as the deck holds it.
    func panel(_ id: String) async throws -> PanelState {
        try await deck.panelState(id)
    }
}
