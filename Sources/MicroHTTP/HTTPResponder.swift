/// Turns a request into a reply.
public protocol HTTPResponder: Sendable {
    /// Called on libmicrohttpd's polling thread, which also serves every other connection on it:
    /// it must not block. Return `.deferred` for anything that waits.
    func respond(to request: HTTPRequest) -> HTTPReply
}

/// A responder made of a closure, for small servers and tests.
public struct CallbackResponder: HTTPResponder {
    let callback: @Sendable (HTTPRequest) -> HTTPReply

    public init(_ callback: @escaping @Sendable (HTTPRequest) -> HTTPReply) {
        self.callback = callback
    }

    public func respond(to request: HTTPRequest) -> HTTPReply {
        callback(request)
    }
}
