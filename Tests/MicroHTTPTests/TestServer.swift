import Testing
import MicroHTTP
import TestSupport

/// Live tests share the machine's two cores; running them one at a time keeps timings honest.
@Suite(.serialized) enum Live {}

/// Starts a server on a free port, runs `body`, and always stops it.
func withServer<Result>(
    _ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
    responder: any HTTPResponder,
    _ body: (HTTPServer, Int) throws -> Result
) throws -> Result {
    var configuration = HTTPServer.Configuration()
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, responder: responder)
    let port = try server.start()
    defer { server.stop() }
    return try body(server, port)
}
