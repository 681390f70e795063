import CEpoll
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Every TCP probe of the process, on one thread (`tcp-probes`): non-blocking connects watched by
/// one epoll set, each probe with its deadline, so thousands of probes cost one thread and a
/// socket each while they connect, rather than a thread each. A probe that reads a banner keeps
/// its socket in the set, for reading, until the banner's first line came or the deadline.
///
/// Started by the first probe; the thread runs as long as the process and never holds it back
/// from exiting.
final class TCPProbeLoop: @unchecked Sendable {
    static let shared = TCPProbeLoop()

    private struct Inbox {
        var started: [ConnectAttempt] = []
        var cancelled: [UInt64] = []
        var lastID: UInt64 = 0
    }

    /// The epoll set (`epoll_create1`) and the eventfd that wakes it; the loop's for good.
    private let poller: Int32
    private let wakeup: Int32
    private let inbox = Locked(Inbox())
    /// How many attempts the loop watched at the end of its last pass.
    private let watched = Locked(0)
    /// The id of the wakeup's epoll events; probes count from 1.
    private static let wakeupID: UInt64 = 0

    private init() {
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(poller >= 0 && wakeup >= 0, "the kernel refused an epoll set for TCP probes: \(errno)")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeupID
        epoll_ctl(poller, EPOLL_CTL_ADD, wakeup, &event)
        DetachedThread.run { [self] in serve() }
    }

    /// Connects to each of `addresses` in turn until one accepts, then reads the banner when
    /// `readingBanner`, all within `timeout`: the connection, or why there was none.
    ///
    /// - Throws: `CancellationError` at once when the task is cancelled; the loop then closes
    ///   the socket.
    func connect(
        to addresses: [SocketAddress], within timeout: Duration, readingBanner: Bool
    ) async throws(CancellationError) -> Result<TCPProbe.Connection, TCPProbe.Failure> {
        let attempt = inbox.withLock { inbox in
            inbox.lastID += 1
            return ConnectAttempt(id: inbox.lastID, addresses: addresses, timeout: timeout, readsBanner: readingBanner)
        }
        let outcome = await withTaskCancellationHandler {
            inbox.withLock { $0.started.append(attempt) }
            wake()
            return await attempt.outcome.value()
        } onCancel: {
            attempt.outcome.offer(nil)
            inbox.withLock { $0.cancelled.append(attempt.id) }
            wake()
        }
        guard let outcome else { throw CancellationError() }
        return outcome
    }

    /// How many connections the loop is waiting on: a test knows from it that a probe is connecting
    /// before it acts on that probe.
    var watchedCount: Int { watched.current }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
    }

    /// The loop: connections that ended, new probes, cancelled ones, passed deadlines; then
    /// `epoll_wait` until the next event or deadline.
    private func serve() {
        DetachedThread.nameCurrentThread("tcp-probes")
        var attempts: [UInt64: ConnectAttempt] = [:]
        var deadlines = DeadlineHeap()
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var published = 0
        while true {
            let count = epoll_wait(poller, &events, Int32(events.count), Self.waitTime(until: deadlines.first))
            for event in events.prefix(Int(max(0, count))) {
                if event.data.u64 == Self.wakeupID {
                    var value: UInt64 = 0
                    _ = read(wakeup, &value, MemoryLayout<UInt64>.size)
                } else if let attempt = attempts[event.data.u64], let socket = attempt.socket {
                    advance(attempt, on: socket, in: &attempts)
                }
            }
            let work = inbox.withLock { inbox in
                defer { (inbox.started, inbox.cancelled) = ([], []) }
                return (inbox.started, inbox.cancelled)
            }
            for attempt in work.0 where !attempt.outcome.isSettled {
                attempts[attempt.id] = attempt
                deadlines.push(attempt.deadline, id: attempt.id)
                proceed(attempt, watching: attempt.connectNext(), in: &attempts)
            }
            for id in work.1 {
                guard let attempt = attempts.removeValue(forKey: id) else { continue }
                attempt.socket.map(unwatch)
            }
            let now = ContinuousClock.now
            while let id = deadlines.popExpired(at: now) {
                guard let attempt = attempts.removeValue(forKey: id) else { continue }
                attempt.socket.map(unwatch)
                attempt.expire()
            }
            // Written only when it changed: most passes change nothing the count shows.
            if attempts.count != published {
                published = attempts.count
                watched.withLock { $0 = published }
            }
        }
    }

    /// An event on the socket of `attempt`: its banner came in (or part of it), or its connection
    /// ended, made or not; a connection made stays watched, for reading, when it has a banner to
    /// read.
    private func advance(_ attempt: ConnectAttempt, on socket: Int32, in attempts: inout [UInt64: ConnectAttempt]) {
        if attempt.isReadingBanner {
            guard attempt.readBanner() else { return }
            unwatch(socket)
            attempts[attempt.id] = nil
            return
        }
        let code = Self.connectionError(of: socket)
        guard code == 0, attempt.readsBanner else {
            unwatch(socket)
            proceed(attempt, watching: attempt.connectionEnded(code), in: &attempts)
            return
        }
        attempt.startReadingBanner()
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = attempt.id
        guard epoll_ctl(poller, EPOLL_CTL_MOD, socket, &event) != 0 else { return }
        let failure = errno
        unwatch(socket)
        proceed(attempt, watching: attempt.connectionEnded(failure), in: &attempts)
    }

    /// Watches `socket` for the end of its connection (or, once connected, for its banner), or
    /// forgets a settled `attempt`.
    private func proceed(_ attempt: ConnectAttempt, watching socket: Int32?, in attempts: inout [UInt64: ConnectAttempt]) {
        var socket = socket
        while let descriptor = socket {
            var event = epoll_event()
            event.events = attempt.isReadingBanner ? EPOLLIN.rawValue : EPOLLOUT.rawValue
            event.data.u64 = attempt.id
            guard epoll_ctl(poller, EPOLL_CTL_ADD, descriptor, &event) != 0 else { return }
            let code = errno
            close(descriptor)
            socket = attempt.connectionEnded(code)
        }
        attempts[attempt.id] = nil
    }

    /// Takes `socket` out of the epoll set, then closes it.
    private func unwatch(_ socket: Int32) {
        epoll_ctl(poller, EPOLL_CTL_DEL, socket, nil)
        close(socket)
    }

    /// The connection's result (`SO_ERROR`): 0 when connected.
    private static func connectionError(of socket: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    /// Milliseconds until `deadline`, rounded up so that the loop never wakes just before it; -1
    /// (no limit) without one.
    private static func waitTime(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
