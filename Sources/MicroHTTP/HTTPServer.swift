import Locking
import Logging
import Threading

/// An HTTP/1.1 server: one libmicrohttpd daemon with its own polling threads.
public final class HTTPServer: Sendable {
    public let configuration: Configuration
    private let core: ServerCore
    private let lifecycle = Locked(Lifecycle.idle)

    private enum Lifecycle {
        case idle
        case running(Daemon, port: Int)
        case stopped
    }

    /// `responder` answers every request, on libmicrohttpd's threads; libmicrohttpd's own
    /// messages go to `logger`.
    public init(
        configuration: Configuration, responder: any HTTPResponder,
        logger: Logger = Logger(label: "statedeck.http")
    ) {
        self.configuration = configuration
        core = ServerCore(configuration: configuration, responder: responder, logger: logger)
    }

    deinit {
        stop()
    }

    /// Binds and starts serving; returns the bound port (the free one chosen for port 0).
    /// A server starts once.
    public func start() throws(HTTPServerError) -> Int {
        let result = lifecycle.withLock { lifecycle -> Result<Int, HTTPServerError> in
            guard case .idle = lifecycle else { return .failure(.alreadyStarted) }
            do throws(HTTPServerError) {
                try configuration.validate()
                let address = try Self.address(host: configuration.host, port: configuration.port)
                let daemon = try core.startDaemon(on: address)
                lifecycle = .running(daemon, port: daemon.boundPort)
                return .success(daemon.boundPort)
            } catch {
                return .failure(error)
            }
        }
        let port = try result.get()
        core.logger.info("HTTP server listening", metadata: ["host": "\(configuration.host)", "port": "\(port)"])
        return port
    }

    /// The one address the daemon binds: the first `host` resolves to (literals need no lookup).
    private static func address(host: String, port: Int) throws(HTTPServerError) -> SocketAddress {
        switch SocketAddress.resolve(host: host, port: port) {
        case .success(let addresses):
            guard let first = addresses.first else { throw .cannotResolve(host: host, reason: "no address") }
            return first
        case .failure(let failure):
            throw .cannotResolve(host: host, reason: failure.message)
        }
    }

    /// The bound port while running, else 0.
    public var port: Int {
        lifecycle.withLock {
            guard case .running(_, let port) = $0 else { return 0 }
            return port
        }
    }

    /// Streams currently open.
    public var liveStreamCount: Int {
        core.liveStreamCount
    }

    /// Requests answered off libmicrohttpd's threads (`HTTPReply.deferred`, `.awaiting`) that have not ended:
    /// their answer still being worked out, or a stream it opened still open.
    public var deferredRequestCount: Int {
        core.deferredRequestCount
    }

    /// Ends every stream and deferred wait, closes every connection and joins the threads.
    /// Returns promptly however many streams are open; safe to call more than once.
    public func stop() {
        let running = lifecycle.withLock { lifecycle -> Daemon? in
            defer { lifecycle = .stopped }
            guard case .running(let daemon, _) = lifecycle else { return nil }
            return daemon
        }
        guard let running else { return }
        core.windDown()
        running.stop()
    }
}
