/// Turns a request into a reply.
public protocol HTTPResponder: Sendable {
    /// Called on libmicrohttpd's polling thread, which also serves every other connection on it:
    /// it must not block. Return `.deferred` or `.awaiting` for anything that waits.
    func respond(to request: HTTPRequest) -> HTTPReply

    /// The fast path: an answer from the request's head alone, asked first for every request
    /// that frames no body (no `Content-Length`, no `Transfer-Encoding`), before its headers are
    /// copied or its target parsed. It must be exactly what `respond(to:)` would answer; nil
    /// (the default) sends the request there. On the polling thread, like `respond(to:)`.
    func respond(toHead head: RequestHead) -> HTTPResponse?
}

extension HTTPResponder {
    public func respond(toHead head: RequestHead) -> HTTPResponse? {
        nil
    }
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
