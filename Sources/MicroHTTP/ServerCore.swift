import Locking
import Logging

/// What libmicrohttpd's callbacks reach: the responder, the limits, and the live streams and
/// deferred requests that stopping must wind down.
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let responder: any HTTPResponder
    let logger: Logger
    let registry = Locked(Registry())
    /// Nil when `connectionTimeout` is zero (never).
    let deadlines: RequestDeadlines?

    struct Registry {
        var shuttingDown = false
        var streams: [ObjectIdentifier: ResponseStream] = [:]
        var deferred: [ObjectIdentifier: RequestContext] = [:]
    }

    init(configuration: HTTPServer.Configuration, responder: any HTTPResponder, logger: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        let timeout = configuration.connectionTimeout
        deadlines = timeout > .zero ? RequestDeadlines(limit: timeout) : nil
    }

    var liveStreamCount: Int {
        registry.withLock { $0.streams.count }
    }

    /// libmicrohttpd finished with a request (sent, failed, client gone, or daemon stopping).
    func requestCompleted(_ context: RequestContext) {
        deadlines?.answered(context.connection)
        let (stream, deferred) = context.state.withLock { ($0.stream, $0.deferred) }
        stream?.detach()
        if deferred {
            registry.withLock { $0.deferred[ObjectIdentifier(context)] = nil }
        }
    }
}
