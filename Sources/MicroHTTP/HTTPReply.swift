/// A responder's answer: now, or after async work during which the connection is suspended.
public enum HTTPReply: Sendable {
    /// Sent at once, on libmicrohttpd's thread.
    case response(HTTPResponse)
    /// Run in a `Task`; the connection waits suspended (no thread held) and is resumed with the
    /// result. If the server stops first, the client gets 503 and the result is dropped.
    case deferred(@Sendable () async -> HTTPResponse)
    /// Handed at once, on libmicrohttpd's thread, a function that answers: called once, from any
    /// thread, with the answer. The connection waits suspended meanwhile, holding no thread and no
    /// task: for work that answers many requests together (the pings a deck takes in one turn),
    /// which a task each would cost more than the work. If the server stops first, the client
    /// gets 503 and the answer is dropped.
    case awaiting(@Sendable (_ answer: @escaping @Sendable (HTTPResponse) -> Void) -> Void)

    /// The answer, once there is one: what a caller outside the transport (a test, an action
    /// performed in-process) reads.
    public func answer() async -> HTTPResponse {
        switch self {
        case .response(let response): response
        case .deferred(let work): await work()
        case .awaiting(let start): await withCheckedContinuation { answered in start { answered.resume(returning: $0) } }
        }
    }
}
