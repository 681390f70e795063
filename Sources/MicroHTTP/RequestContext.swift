import Locking

/// One request's state across libmicrohttpd's calls to the access handler, and the deferred
/// work answering it. Handed out by the URI-log callback (new, or the connection's previous one
/// restarted: `ConnectionContext`), given back by the request-completed one.
final class RequestContext: Sendable {
    /// The request target as received, before libmicrohttpd splits or decodes it; nil when it
    /// is not UTF-8. Replaced only by `restart`, while nothing else holds this context.
    nonisolated(unsafe) private(set) var target: String?
    /// The target's length in bytes as received, UTF-8 or not; replaced with it.
    nonisolated(unsafe) private(set) var targetSize: Int
    let connection: Connection
    /// The connection's arrival deadline; nil when requests are not timed.
    let deadline: ConnectionDeadline?
    let state = Locked(State())

    struct State {
        var phase = Phase.awaitingHeaders
        var headers = HTTPHeaders()
        var body: [UInt8] = []
        /// The stream this request's response drains, if any.
        var stream: ResponseStream?
        /// Listed among the server's deferred requests until it completes.
        var deferred = false
    }

    enum Phase {
        /// The first call: headers are in, no body byte yet; answering now would close the
        /// connection, so only a refusal is answered here.
        case awaitingHeaders
        /// The responder answered from the head; the answer waits for the next call, since one
        /// queued on the first would close the connection.
        case answeredFromHead(HTTPResponse)
        case receivingBody
        /// Handed to the responder: its answer is queued, or its deferred work about to start.
        case dispatched
        /// The body outgrew the limit; the rest is counted, dropped, and 413 answered at the end.
        case bodyTooLarge(discarded: Int)
        /// Deferred work is running and the connection waits for it, suspended.
        case deferred
        case deferredDone(HTTPResponse)
        /// The server stopped before the deferred work finished.
        case deferredCancelled
        /// An answer of the server's own (a refusal, 413, 503) or the deferred one is queued.
        case answered
    }

    init(target: String?, targetSize: Int, connection: Connection, deadline: ConnectionDeadline?) {
        self.target = target
        self.targetSize = targetSize
        self.connection = connection
        self.deadline = deadline
    }

    /// Makes this context the next request's on the same connection (`ConnectionContext`); its
    /// state was reset when the previous request completed (`ServerCore.requestCompleted`).
    func restart(target: String?, targetSize: Int) {
        self.target = target
        self.targetSize = targetSize
    }

    /// Suspends the connection and hands `start` the function that resumes it with the answer
    /// (``HTTPReply/awaiting(_:)``). False, with nothing started, if the server stopped first.
    func runDeferred(_ start: (@escaping @Sendable (HTTPResponse) -> Void) -> Void) -> Bool {
        let started = state.withLock { state in
            guard case .dispatched = state.phase else { return false }
            state.phase = .deferred
            connection.suspend()
            return true
        }
        guard started else { return false }
        start { [self] response in
            // Resumed under the lock, so a stop that cancels after this finds it done.
            state.withLock { state in
                guard case .deferred = state.phase else { return }
                state.phase = .deferredDone(response)
                connection.resume()
            }
        }
        return true
    }

    /// Server stop: the client gets 503 instead of the deferred answer, whether it already
    /// waits (resumed here; the next access call answers) or is about to (`runDeferred` refuses).
    func cancelDeferred() {
        state.withLock { state in
            switch state.phase {
            case .dispatched:
                state.phase = .deferredCancelled
            case .deferred:
                state.phase = .deferredCancelled
                connection.resume()
            default:
                break
            }
        }
    }
}
