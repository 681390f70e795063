/// A responder's answer: now, or after async work during which the connection is suspended.
public enum HTTPReply: Sendable {
    /// Sent at once, on libmicrohttpd's thread.
    case response(HTTPResponse)
    /// Run in a `Task`; the connection waits suspended (no thread held) and is resumed with the
    /// result. If the server stops first, the client gets 503 and the result is dropped.
    case deferred(@Sendable () async -> HTTPResponse)
}
