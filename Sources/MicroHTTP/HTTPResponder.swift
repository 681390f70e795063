/// Turns a request into a reply.
public protocol HTTPResponder: Sendable {
    /// Called on libmicrohttpd's polling thread, which also serves every other connection on it:
    /// it must not block. Return `.deferred` for anything that waits.
    func respond(to request: HTTPRequest) -> HTTPReply
}
