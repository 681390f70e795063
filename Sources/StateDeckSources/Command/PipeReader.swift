import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads one pipe of a running command into a bounded buffer, on a thread of its own. It owns the
/// descriptor, and reports once when the pipe ends (end of file or `stop()`).
///
/// A thread rather than a Dispatch read source: libdispatch on Linux can unregister a pipe's
/// source twice when the pipe's end and the source's cancellation race (seen with strace: a
/// second `EPOLL_CTL_DEL` after the close), which crashed the process in
/// `_dispatch_event_loop_drain`.
final class PipeReader: Sendable {
    /// How often a reader waiting for data checks for `stop()`: a descendant that inherited the
    /// pipe and left the command's process group may hold it open long after the command exited.
    static let stopCheck: Int32 = 50  // milliseconds

    private let buffer: Locked<OutputBuffer>
    private let stopped = Locked(false)

    /// Starts reading `descriptor`.
    init(descriptor: Int32, buffer: OutputBuffer, onEnd: @escaping @Sendable () -> Void) {
        self.buffer = Locked(buffer)
        // Non-blocking, so that a spurious readiness report can never stall the reader.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        DetachedThread.run { [self] in
            read(descriptor)
            close(descriptor)
            onEnd()
        }
    }

    /// Stops reading, keeping what was read.
    func stop() {
        stopped.withLock { $0 = true }
    }

    /// What was kept so far.
    var output: OutputBuffer { buffer.current }

    /// Reads until the end of file, a read error or `stop()`.
    private func read(_ descriptor: Int32) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !stopped.current {
            let ready = poll(&request, 1, Self.stopCheck)
            guard ready > 0 else {
                if ready == 0 || errno == EINTR { continue }
                return
            }
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count > 0 {
                buffer.withLock { $0.append(chunk[..<count]) }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                return
            }
        }
    }
}

// MARK: - The buffer

/// The bytes kept of one output stream: its beginning (standard output, which carries the data) or
/// its end (standard error, where the reason of a failure usually is), never more than `limit`.
struct OutputBuffer: Sendable {
    enum Keep: Sendable { case head, tail }

    let keep: Keep
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private(set) var truncated = false

    init(keep: Keep, limit: Int) {
        self.keep = keep
        self.limit = limit
    }

    mutating func append(_ chunk: some Collection<UInt8>) {
        switch keep {
        case .head:
            let room = limit - bytes.count
            bytes.append(contentsOf: chunk.prefix(room))
            truncated = truncated || chunk.count > room
        case .tail:
            bytes.append(contentsOf: chunk)
            guard bytes.count > limit else { return }
            truncated = true
            bytes.removeFirst(bytes.count - limit)
        }
    }

    /// The kept bytes as text; a cut multi-byte character becomes U+FFFD.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
