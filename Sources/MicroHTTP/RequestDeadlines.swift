import Dispatch
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Bounds how long a request may take to arrive whole, head and body.
///
/// libmicrohttpd's connection timeout counts idle time only, and every byte received restarts it:
/// a client dripping one header byte every few hundred milliseconds would hold its connection
/// (and, at the connection limit, everyone's) forever. Here each connection gets a deadline when
/// it opens and again after each answered request; a request that has not fully arrived by then
/// has its socket shut down, which makes libmicrohttpd close the connection on its next read.
/// Requests being answered (deferred work, streams) are exempt: only arrival is timed.
final class RequestDeadlines: Sendable {
    /// How long a request may take to arrive, from the connection opening or the previous answer.
    let limit: Duration
    private let state = Locked(State())

    private struct State {
        /// Connections by the address of libmicrohttpd's connection; nil deadline means exempt.
        var connections: [UInt: Entry] = [:]
        var timer: (any DispatchSourceTimer)?
        var stopped = false
    }

    private struct Entry {
        let socket: Int32
        var deadline: ContinuousClock.Instant?
    }

    init(limit: Duration) {
        self.limit = limit
    }

    /// Starts checking deadlines, a few times per `limit` (at most every second).
    func start() {
        let tick = min(max(limit / 4, .milliseconds(50)), .seconds(1))
        let nanoseconds = Int(tick.components.seconds) * 1_000_000_000
            + Int(tick.components.attoseconds / 1_000_000_000)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "statedeck.http.deadlines"))
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        // Strong: `stop()` cancels the timer, which lets go of the handler and so of `self`.
        timer.setEventHandler { self.expire() }
        let started = state.withLock { state -> Bool in
            guard !state.stopped, state.timer == nil else { return false }
            state.timer = timer
            return true
        }
        if started {
            timer.resume()
        }
    }

    /// Stops checking; no socket is touched after this returns. Before the daemon stops.
    func stop() {
        let timer = state.withLock { state in
            state.stopped = true
            state.connections = [:]
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    /// A connection opened (`MHD_CONNECTION_NOTIFY_STARTED`): its first request is timed.
    func opened(_ connection: Connection) {
        let socket = connection.socket
        let deadline = ContinuousClock.now + limit
        state.withLock { state in
            guard !state.stopped else { return }
            state.connections[Self.key(connection)] = Entry(socket: socket, deadline: deadline)
        }
    }

    /// The connection's request arrived whole (or was answered early): stop timing it.
    func arrived(_ connection: Connection) {
        state.withLock { $0.connections[Self.key(connection)]?.deadline = nil }
    }

    /// The connection's request is over: its next request is timed from now.
    func answered(_ connection: Connection) {
        let deadline = ContinuousClock.now + limit
        state.withLock { $0.connections[Self.key(connection)]?.deadline = deadline }
    }

    /// The connection closed (`MHD_CONNECTION_NOTIFY_CLOSED`, which libmicrohttpd sends before it
    /// closes the socket): forget it, so its socket number is never touched again.
    func closed(_ connection: Connection) {
        _ = state.withLock { $0.connections.removeValue(forKey: Self.key(connection)) }
    }

    /// Shuts down the sockets of requests past their deadline. Under the lock that `closed`
    /// takes, so each socket still belongs to its connection.
    private func expire() {
        let now = ContinuousClock.now
        state.withLock { state in
            guard !state.stopped else { return }
            for (key, entry) in state.connections {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                state.connections[key]?.deadline = nil
                if entry.socket >= 0 {
                    shutdown(entry.socket, Int32(SHUT_RDWR))
                }
            }
        }
    }

    private static func key(_ connection: Connection) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection.pointer)))
    }
}
