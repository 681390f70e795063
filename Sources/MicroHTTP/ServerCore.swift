import Locking
import Logging

/// What libmicrohttpd's callbacks reach: the responder, the limits, and the live streams and
/// deferred requests that stopping must wind down.
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let responder: any HTTPResponder
    let logger: Logger
    let registry: Locked<Registry>
    /// Nil when `connectionTimeout` is zero (never).
    let deadlines: RequestDeadlines?
    /// Nil if the kernel refused an epoll set.
    let hangups: HangupWatcher?

    struct Registry {
        var shuttingDown = false
        /// Live streams by an id never reused, so a late hang-up cannot reach a newer stream.
        var streams: [UInt64: ResponseStream] = [:]
        var lastStreamID: UInt64 = 0
        var deferred: [ObjectIdentifier: RequestContext] = [:]
    }

    init(configuration: HTTPServer.Configuration, responder: any HTTPResponder, logger: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        let timeout = configuration.connectionTimeout
        deadlines = timeout > .zero ? RequestDeadlines(limit: timeout) : nil
        let registry = Locked(Registry())
        self.registry = registry
        hangups = HangupWatcher { id in
            registry.withLock { $0.streams[id] }?.clientLeft()
        }
    }

    var liveStreamCount: Int {
        registry.withLock { $0.streams.count }
    }

    var deferredRequestCount: Int {
        registry.withLock { $0.deferred.count }
    }

    /// libmicrohttpd finished with a request (sent, failed, client gone, or daemon stopping).
    func requestCompleted(_ context: RequestContext) {
        context.deadline?.answered()
        // Reset under the lock taken here anyway, so that reusing the context for the
        // connection's next request (`RequestContext.restart`) takes none.
        let (stream, deferred) = context.state.withLock { state in
            defer { state = RequestContext.State() }
            return (state.stream, state.deferred)
        }
        stream?.detach()
        if deferred {
            registry.withLock { $0.deferred[ObjectIdentifier(context)] = nil }
        }
    }
}
