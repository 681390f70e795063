import EventStream
import Locking

/// An in-memory client stream that records what it is sent, like MicroHTTP's `ResponseStream`:
/// writes fail once it is finished or made to fail, and its close handler runs exactly once.
final class TestSink: EventSink {
    private struct State {
        var chunks: [[UInt8]] = []
        var writesLeft: Int?
        var isClosed = false
        var finishCount = 0
        var onClose: (@Sendable () -> Void)?

        /// Marks the sink closed, handing back the close handler the first time only.
        mutating func close() -> (@Sendable () -> Void)? {
            guard !isClosed else { return nil }
            isClosed = true
            defer { onClose = nil }
            return onClose
        }
    }

    private let state: Locked<State>

    /// - Parameter failAfter: How many writes succeed before every later one fails; nil: all.
    init(failAfter writes: Int? = nil) {
        state = Locked(State(writesLeft: writes))
    }

    func write(_ bytes: [UInt8]) -> Bool {
        let (accepted, handler) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard !state.isClosed else { return (false, nil) }
            if let left = state.writesLeft {
                guard left > 0 else { return (false, state.close()) }
                state.writesLeft = left - 1
            }
            state.chunks.append(bytes)
            return (true, nil)
        }
        handler?()
        return accepted
    }

    func finish() {
        state.withLock { state in
            state.finishCount += 1
            return state.close()
        }?()
    }

    /// Makes every later write fail, as when the client has gone away.
    func disconnect() {
        state.withLock { $0.close() }?()
    }

    /// Runs `handler` once when the sink closes (a failed write or `finish`), outside its lock,
    /// as `ResponseStream.onClose` does; it may call back into the hub.
    func onClose(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onClose = handler }
    }

    var chunks: [[UInt8]] { state.withLock { $0.chunks } }
    var finishCount: Int { state.withLock { $0.finishCount } }
    /// Everything received, in order (a loop: `joined()` is very slow in debug builds).
    var bytes: [UInt8] { chunks.reduce(into: []) { $0.append(contentsOf: $1) } }
    var text: String { String(decoding: bytes, as: UTF8.self) }
    var blocks: [ReceivedBlock] { ReceivedBlock.parse(bytes) }
    /// The blocks that carry data: events, leaving out `retry:` and comments.
    var events: [ReceivedBlock] { blocks.filter { $0.data != nil } }
}
