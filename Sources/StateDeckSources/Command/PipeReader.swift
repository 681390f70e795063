import Dispatch
import Foundation
import Locking

/// Reads one pipe of a running command into a bounded buffer as data arrives, without holding a
/// thread. It owns the descriptor, and reports once when the pipe ends (end of file or `stop()`).
final class PipeReader: Sendable {
    // Dispatch sources are thread-safe; the protocol is just not marked `Sendable`.
    nonisolated(unsafe) private let source: any DispatchSourceRead
    private let buffer: Locked<OutputBuffer>

    /// Starts reading `descriptor` on `queue`.
    init(descriptor: Int32, buffer: OutputBuffer, queue: DispatchQueue, onEnd: @escaping @Sendable () -> Void) {
        // Non-blocking, so that a spurious readiness report can never stall the queue.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        self.buffer = Locked(buffer)
        source.setEventHandler { [weak self] in self?.readAvailable(from: descriptor) }
        // Closed only once cancelled: the source must not watch a closed (maybe reused) descriptor.
        source.setCancelHandler {
            close(descriptor)
            onEnd()
        }
        source.resume()
    }

    /// Stops reading, keeping what was read.
    func stop() { source.cancel() }

    /// What was kept so far.
    var output: OutputBuffer { buffer.current }

    /// Reads until the pipe is empty: Dispatch does not report again what is already pending,
    /// such as the end of file right after the last data.
    private func readAvailable(from descriptor: Int32) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count > 0 {
                buffer.withLock { $0.append(chunk[..<count]) }
            } else if count == -1, errno == EINTR {
                continue
            } else {
                if count == 0 || errno != EAGAIN { source.cancel() }
                return
            }
        }
    }
}
