import Locking

/// A bounded queue of bytes for one streaming client (server-sent events).
///
/// Writers append whole chunks (no byte copy: arrays are shared copy-on-write); libmicrohttpd's
/// thread drains them. While the client is caught up its connection is suspended and costs no
/// CPU; `write` resumes it. A client that falls `capacity` bytes behind is dropped.
public final class ResponseStream: Sendable {
    public let capacity: Int
    let state: Locked<State>

    struct State {
        var chunks: [[UInt8]] = []
        /// Bytes of `chunks[0]` already sent.
        var offset = 0
        var queuedBytes = 0
        var phase = Phase.open
        var attachment: Attachment?
        /// The reader suspended the connection. Set with the suspend and cleared with the
        /// resume, both under the lock: resuming a connection that is not suspended is undefined.
        var suspended = false
        /// The client hung up while the connection was being polled: end the stream at the
        /// next suspend instead, as nothing would report the hang-up again.
        var clientHasLeft = false
        var idlePages = IdlePages()
        var closeHandlers: [@Sendable () -> Void] = []
    }

    enum Phase {
        case open
        /// `finish()` or server stop: ends once the queue is sent.
        case finishing
        /// The client fell too far behind or left; the queue was dropped and the connection is
        /// being closed.
        case dropped
        /// libmicrohttpd is done with the stream; close handlers have run.
        case ended
    }

    /// The connection the stream is the response of, and what to do when it lets go.
    struct Attachment {
        let connection: Connection
        let socket: Int32
        let onDetach: @Sendable () -> Void
    }

    public init(capacity: Int) {
        self.capacity = capacity
        state = Locked(State())
    }

    /// True once no more writes are accepted: finished, overflowed, or ended.
    public var isClosed: Bool {
        state.withLock { $0.phase != .open }
    }
}
