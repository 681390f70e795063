import DeckTestSupport
import Foundation
import MicroHTTP
import StateDeck
@testable import StateDeckServer
import TestSupport

/// A dashboard asked without a socket, as Hummingbird's router tests ask an application: a real
/// `DeckServer` over the hermetic page folder, its deck started but nothing bound, each request
/// handed to its responder (the request gate, then the routes) as the transport would hand it
/// over. `RoutedDeckServer.run(deck) { server in … }` starts the deck, runs the body and always
/// stops it.
///
/// What the routes answer (statuses, JSON bodies, their headers) is tested here. What the transport
/// does itself is tested live: its own 400/413/414/431, the security headers it adds to every
/// answer, `Content-Length`, a HEAD answer without its body, streams, connections and limits.
final class RoutedDeckServer: Sendable {
    /// The port the gate is bound to, as a server listening there would be: `Host` and `Origin`
    /// must name it.
    static let port = 8080

    let server: DeckServer
    let folder: PublicFolder

    var port: Int { Self.port }
    var deck: Deck { server.deck }

    /// `Host: 127.0.0.1:<port>`, as a browser on this machine would send it.
    var hostHeader: String { "127.0.0.1:\(port)" }

    /// Prepares a server of `deck` with `options` (their host, token, history, cluster…) and
    /// starts the deck's loads.
    init(deck: Deck, options: LiveDeckServer.Options = LiveDeckServer.Options()) async throws {
        folder = try PublicFolder()
        do {
            server = try await options.server(of: deck, publicDirectory: folder.url)
        } catch {
            folder.remove()
            throw error
        }
        server.responder.gate.bind(port: Self.port)
        await server.deck.start()
    }

    /// Starts `deck`, runs `body`, then stops the deck (also when `body` throws).
    static func run(
        _ deck: Deck, _ options: LiveDeckServer.Options = LiveDeckServer.Options(),
        _ body: (RoutedDeckServer) async throws -> Void
    ) async throws {
        try await stopping(try await RoutedDeckServer(deck: deck, options: options), with: { await $0.stop() }, after: body)
    }

    /// Stops the deck and removes the page folder; safe to call again.
    func stop() async {
        await server.stop()
        folder.remove()
    }

    /// The answer to a request with exactly these header lines (no `Host` added; `Content-Length`
    /// with a body, as a client sends it), deferred or not.
    func request(
        _ method: String, _ target: String, headers: [(String, String)], body: [UInt8]? = nil
    ) async throws -> HTTPTestResponse {
        var fields = HTTPHeaders(headers.map { (name: $0.0, value: $0.1) })
        if let body { fields.add("Content-Length", String(body.count)) }
        let request = try HTTPRequest(method: HTTPMethod(rawValue: method), target: target, headers: fields, body: body ?? [])
        return try HTTPTestResponse(routed: await server.responder.respond(to: request).answer())
    }
}

/// A route answered with a stream, which only the transport can read: such a test is a live one.
struct RoutedStreamError: Error, CustomStringConvertible {
    var description: String { "the route answered with a stream: test it live" }
}

extension HTTPTestResponse {
    /// The responder's answer as a client reads it, but for what the transport adds.
    init(routed response: HTTPResponse) throws {
        let body: [UInt8] = switch response.body {
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.bytes
        case .stream: throw RoutedStreamError()
        }
        self.init(status: response.status.rawValue, headers: response.headers.map { ($0.name, $0.value) }, body: body)
    }
}
