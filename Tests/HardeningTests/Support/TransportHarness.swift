import DeckTestSupport
import Foundation
import MicroHTTP
import TestSupport

/// A bare `HTTPServer` with the limits a test sets, answering:
/// `GET /hello` 200 `hello`; `POST /echo` 200 with the body's length; anything else 404.
/// `requests` counts every request that reached the responder.
final class TransportHarness: Sendable {
    let server: HTTPServer
    let port: Int
    let requests = Counter()

    init(_ configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws {
        var configuration = HTTPServer.Configuration()
        configure(&configuration)
        let requests = requests
        server = HTTPServer(configuration: configuration, responder: CallbackResponder { request in
            requests.increment()
            switch (request.method, request.path) {
            case (.get, "/hello"):
                return .response(HTTPResponse(status: .ok, body: .bytes(Array("hello".utf8))))
            case (.post, "/echo"):
                return .response(HTTPResponse(status: .ok, body: .bytes(Array("\(request.body.count)".utf8))))
            default:
                return .response(.error(.notFound, code: "not_found", message: "nothing here"))
            }
        }, logger: LiveDeckServer.quietLogger)
        port = try server.start()
    }

    /// Starts a server, runs `body`, and always stops it.
    static func run(
        _ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
        _ body: (TransportHarness) async throws -> Void
    ) async throws {
        let harness = try TransportHarness(configure)
        defer { harness.server.stop() }
        try await body(harness)
    }

    /// `GET /hello` on a fresh connection, off the pool.
    func hello() async throws -> Int {
        let port = port
        return try await offPool { try HTTPTestClient.request("GET", "/hello", port: port).status }
    }

    /// Sends `bytes`, ends sending, and reads what comes back, off the pool.
    func exchange(_ bytes: [UInt8], timeout: Duration = .seconds(3)) async throws -> RawOutcome {
        let port = port
        return try await offPool { TestSocket.exchange(bytes, port: port, timeout: timeout) }
    }

    func exchange(_ text: String, timeout: Duration = .seconds(3)) async throws -> RawOutcome {
        try await exchange(Array(text.utf8), timeout: timeout)
    }

    /// The `Host` header line of this server.
    var hostLine: String { "Host: 127.0.0.1:\(port)\r\n" }
}
