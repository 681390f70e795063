import Dispatch
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Catches SIGINT and SIGTERM from the moment it is created, so that a signal arriving right
/// after the start-up line still stops the server cleanly instead of killing the process.
final class TerminationSignal: Sendable {
    private let sources = Locked<[any DispatchSourceSignal]>([])
    private let received = Locked<(number: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [received] in
                let waiter = received.withLock { state -> CheckedContinuation<Int32, Never>? in
                    guard state.number == nil else { return nil }
                    state.number = number
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: number)
            }
            source.resume()
            sources.withLock { $0.append(source) }
        }
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
