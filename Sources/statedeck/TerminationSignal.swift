import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Catches SIGINT and SIGTERM from the moment it is created, so that a signal arriving right
/// after the start-up line still stops the server cleanly instead of killing the process, and
/// bounds the stop: `deadline` after the first signal the process exits with status 0, whatever
/// is still running.
///
/// Neither the catching nor the bound relies on Dispatch or on Swift's concurrency pool, whose
/// threads a stuck stop may hold (seen: a stop that never ended, its fallback exit queued on a
/// Dispatch worker that never ran). The signal handler (`sigaction`) only writes the signal's
/// number to a pipe; a thread of its own reads it, wakes `next()`, then waits out the deadline
/// and ends the process with `_exit`, which runs no exit handler that could wait on a lock.
///
/// Before ``serving()`` a signal ends the process at once: a start reading a deck of 100,000 panels
/// takes seconds, nothing has been served yet, and what it may have begun writing (the history,
/// a cluster's lease) survives an end at any instant, as it survives `kill -9`.
final class TerminationSignal: Sendable {
    private let received = Locked<(number: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))
    private let isServing = Locked(false)

    init(deadline: Duration) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { fatalError("no pipe for signals: errno \(errno)") }
        let readEnd = ends[0]
        signalPipe = ends[1]
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = writeSignalNumber
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        DetachedThread.run { [received, isServing] in
            DetachedThread.nameCurrentThread("signals")
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) != 1 {}
            if !isServing.withLock({ $0 }) { _exit(0) }
            let number = Int32(byte)
            let waiter = received.withLock { state -> CheckedContinuation<Int32, Never>? in
                state.number = number
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: number)
            var wait = timespec(tv_sec: Int(deadline.components.seconds),
                                tv_nsec: Int(deadline.components.attoseconds / 1_000_000_000))
            var rest = timespec()
            while nanosleep(&wait, &rest) != 0 { wait = rest }
            _exit(0)
        }
    }

    /// The server is up: from now on a signal stops it cleanly, within the deadline.
    func serving() {
        isServing.withLock { $0 = true }
    }

    /// The first signal received, waiting for it if none came yet.
    func next() async -> Int32 {
        await withCheckedContinuation { continuation in
            let number = received.withLock { state -> Int32? in
                if state.number == nil { state.waiter = continuation }
                return state.number
            }
            if let number { continuation.resume(returning: number) }
        }
    }
}

/// The pipe's write end, set before any handler is installed.
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// The handler of SIGINT and SIGTERM: `write` is async-signal-safe, and the pipe's buffer holds
/// far more signals than anyone sends.
private let writeSignalNumber: @convention(c) (Int32) -> Void = { number in
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipe, &byte, 1)
}
