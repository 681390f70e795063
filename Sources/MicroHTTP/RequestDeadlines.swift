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
    /// Time between two checks.
    let tick: Duration
    private let clock: DeadlineClock
    private let state = Locked(State())

    private struct State {
        /// Open connections by identity; `closed` removes them before their socket closes.
        var connections: [ObjectIdentifier: ConnectionDeadline] = [:]
        var timer: (any DispatchSourceTimer)?
        var stopped = false
    }

    /// `limit`: how long a request may take to arrive, from the connection opening or the
    /// previous answer.
    init(limit: Duration) {
        tick = max(limit / 6, .milliseconds(50))
        clock = DeadlineClock(ticksPerLimit: Int((limit / tick).rounded(.up)))
    }

    /// Starts checking deadlines six times per `limit` (every `tick`), so a request is cut off at
    /// most a sixth late. Each check visits every open connection, idle streams included: with
    /// the default 30 s limit and 18,600 streams, checking every second cost ~1 % of a core
    /// (`perf`), every 5 s a fifth of that.
    func start() {
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

    /// A connection opened (`MHD_CONNECTION_NOTIFY_STARTED`): its first request is timed. Nil
    /// once stopped.
    func opened(socket: Int32) -> ConnectionDeadline? {
        let connection = ConnectionDeadline(socket: socket, clock: clock)
        return state.withLock { state in
            guard !state.stopped else { return nil }
            state.connections[ObjectIdentifier(connection)] = connection
            return connection
        }
    }

    /// The connection closed (`MHD_CONNECTION_NOTIFY_CLOSED`, which libmicrohttpd sends before it
    /// closes the socket): forget it, so its socket number is never touched again.
    func closed(_ connection: ConnectionDeadline) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Shuts down the sockets of requests past their deadline. Under the lock that `closed`
    /// takes, so each socket still belongs to its connection.
    private func expire() {
        let tick = clock.advance()
        state.withLock { state in
            guard !state.stopped else { return }
            for connection in state.connections.values where connection.expire(atTick: tick) && connection.socket >= 0 {
                shutdown(connection.socket, Int32(SHUT_RDWR))
            }
        }
    }
}
