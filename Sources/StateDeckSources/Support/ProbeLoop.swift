import CEpoll
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the probe loop serves: the sockets it watches for it and its one deadline, each called
/// on the loop's thread.
protocol ProbeLoopClient: AnyObject {
    /// `socket`, which the client watches, is ready: `events` are epoll's (`EPOLLIN`, `EPOLLOUT`,
    /// `EPOLLERR`).
    func socketReady(_ socket: Int32, events: UInt32, on loop: ProbeLoop)
    /// The client's deadline came.
    func deadlineCame(on loop: ProbeLoop)
}

/// A client a task waits on: started on the loop, its outcome settled once, ended early when the
/// task is cancelled. Sendable for `outcome`; the rest is the loop's thread's.
protocol ProbeLoopTask: ProbeLoopClient, Sendable {
    associatedtype Outcome: Sendable
    /// Nil once the task was cancelled.
    var outcome: FirstResult<Outcome?> { get }
    /// Begins, unless the task was cancelled already (`outcome` settled).
    func start(on loop: ProbeLoop)
    /// Ends at once: its sockets closed, the loop done with it.
    func cancel(on loop: ProbeLoop)
}

/// A `ProbeLoopTask` that runs under one deadline from its start and holds what it must close
/// (a socket, a library's connection) until it ends: its start, cancel and settle are written
/// here once, each probe giving what it begins with and what it releases.
protocol DeadlineProbe: ProbeLoopTask {
    var deadline: ContinuousClock.Instant { get }
    /// Its name on the loop while it runs.
    var token: UInt64? { get set }
    /// Its first step, once on the loop with its deadline set.
    func begin(on loop: ProbeLoop)
    /// Closes what it holds; called as it ends, settled or cancelled.
    func release(on loop: ProbeLoop)
}

extension DeadlineProbe {
    func start(on loop: ProbeLoop) {
        guard !outcome.isSettled else { return }
        let token = loop.add(self)
        self.token = token
        loop.setDeadline(deadline, for: token)
        begin(on: loop)
    }

    func cancel(on loop: ProbeLoop) {
        finish(on: loop)
    }

    /// Offers `result` and ends.
    func settle(_ result: Outcome, on loop: ProbeLoop) {
        outcome.offer(result)
        finish(on: loop)
    }

    /// Releases what it holds and leaves the loop.
    func finish(on loop: ProbeLoop) {
        release(on: loop)
        token.map(loop.remove)
        token = nil
    }
}

/// Every probe of the process that waits on a socket (TCP connections, banners, ICMP echoes) on
/// one thread (`probes`): sockets watched by one epoll set, and a deadline per client, so
/// thousands of probes cost one thread rather than a thread each.
///
/// Another thread hands work to the loop with ``execute(_:)``; every other method is the loop
/// thread's, called from that work or from a client's callbacks. Started by the first probe; the
/// thread runs as long as the process and never holds it back from exiting.
final class ProbeLoop: @unchecked Sendable {
    static let shared = ProbeLoop()

    /// The epoll set (`epoll_create1`) and the eventfd that wakes it; the loop's for good.
    private let poller: Int32
    private let wakeup: Int32
    private let inbox = Locked<[@Sendable (ProbeLoop) -> Void]>([])
    /// How many clients the loop held at the end of its last pass.
    private let published = Locked(0)

    // The loop thread's own.
    private var clients: [UInt64: any ProbeLoopClient] = [:]
    /// The client watching each socket.
    private var watchers: [Int32: UInt64] = [:]
    private var deadlines = DeadlineHeap()
    /// Each client's deadline, against which a heap entry is checked: a moved deadline leaves
    /// its earlier entry behind.
    private var deadlineOf: [UInt64: ContinuousClock.Instant] = [:]
    private var lastToken: UInt64 = 0

    private init() {
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(poller >= 0 && wakeup >= 0, "the kernel refused an epoll set for probes: \(errno)")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeup
        epoll_ctl(poller, EPOLL_CTL_ADD, wakeup, &event)
        DetachedThread.run { [self] in serve() }
    }

    /// Runs `work` on the loop's thread, soon; callable from any thread.
    func execute(_ work: @escaping @Sendable (ProbeLoop) -> Void) {
        inbox.withLock { $0.append(work) }
        var one: UInt64 = 1
        _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
    }

    /// What `probe` came to, run on the loop's thread.
    ///
    /// - Throws: `CancellationError` at once when the task is cancelled; the probe then ends on
    ///   the loop's thread.
    func run<Probe: ProbeLoopTask>(_ probe: Probe) async throws(CancellationError) -> Probe.Outcome {
        let outcome = await withTaskCancellationHandler {
            execute { probe.start(on: $0) }
            return await probe.outcome.value()
        } onCancel: {
            probe.outcome.offer(nil)
            execute { probe.cancel(on: $0) }
        }
        guard let outcome else { throw CancellationError() }
        return outcome
    }

    /// How many clients the loop serves: a test knows from it that a probe is under way before it
    /// acts on that probe.
    var clientCount: Int { published.current }

    // MARK: - On the loop's thread

    /// Serves `client` from now on; the token names it to the other methods.
    func add(_ client: any ProbeLoopClient) -> UInt64 {
        lastToken += 1
        clients[lastToken] = client
        return lastToken
    }

    /// Serves the client no more, its deadline and the sockets it still watches forgotten (not
    /// closed: they are its own).
    func remove(_ token: UInt64) {
        clients[token] = nil
        deadlineOf[token] = nil
    }

    /// The client's one deadline, in place of the one it had; nil for none.
    func setDeadline(_ deadline: ContinuousClock.Instant?, for token: UInt64) {
        deadlineOf[token] = deadline
        if let deadline { deadlines.push(deadline, id: token) }
    }

    /// Watches `socket` for `events` on behalf of client `token`, or changes the events it is
    /// watched for: 0, or the `errno` of `epoll_ctl`.
    @discardableResult
    func watch(_ socket: Int32, for events: UInt32, by token: UInt64) -> Int32 {
        var event = epoll_event()
        event.events = events
        event.data.fd = socket
        let operation = watchers[socket] == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD
        guard epoll_ctl(poller, operation, socket, &event) == 0 else { return errno }
        watchers[socket] = token
        return 0
    }

    /// Takes `socket` out of the epoll set, then closes it.
    func close(_ socket: Int32) {
        unwatch(socket)
        _ = Glibc.close(socket)
    }

    /// Takes `socket` out of the epoll set, leaving it open: a socket a client library owns and
    /// closes itself (libpq's, MariaDB's), or one it closed already, whose number may come back.
    func unwatch(_ socket: Int32) {
        if watchers.removeValue(forKey: socket) != nil { epoll_ctl(poller, EPOLL_CTL_DEL, socket, nil) }
    }

    /// The loop: sockets ready, work handed in, deadlines passed; then `epoll_wait` until the
    /// next event or deadline.
    private func serve() {
        DetachedThread.nameCurrentThread("probes")
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var count = 0
        while true {
            let ready = epoll_wait(poller, &events, Int32(events.count), Self.waitTime(until: deadlines.first))
            for event in events.prefix(Int(max(0, ready))) {
                let socket = event.data.fd
                if socket == wakeup {
                    var value: UInt64 = 0
                    _ = read(wakeup, &value, MemoryLayout<UInt64>.size)
                } else if let token = watchers[socket], let client = clients[token] {
                    client.socketReady(socket, events: event.events, on: self)
                }
            }
            for work in inbox.withLock({ inbox in defer { inbox = [] }; return inbox }) {
                work(self)
            }
            let now = ContinuousClock.now
            while let token = deadlines.popExpired(at: now) {
                guard let deadline = deadlineOf[token], deadline <= now, let client = clients[token] else { continue }
                deadlineOf[token] = nil
                client.deadlineCame(on: self)
            }
            // Written only when it changed: most passes change nothing the count shows.
            if clients.count != count {
                count = clients.count
                published.withLock { $0 = count }
            }
        }
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
