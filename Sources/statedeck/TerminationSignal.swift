import Dispatch
import Foundation
import Locking

/// Waits for SIGINT or SIGTERM.
enum TerminationSignal {
    /// Suspends until the first of SIGINT and SIGTERM arrives; returns its number.
    static func next() async -> Int32 {
        let watch = Watch()
        let number = await withCheckedContinuation { continuation in
            watch.start { continuation.resume(returning: $0) }
        }
        withExtendedLifetime(watch) {}
        return number
    }

    /// Keeps the dispatch sources alive while waiting, and resumes the waiter once.
    private final class Watch: Sendable {
        private let sources = Locked<[any DispatchSourceSignal]>([])
        private let fired = Locked(false)

        func start(_ handler: @escaping @Sendable (Int32) -> Void) {
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [fired] in
                    let first = fired.withLock { fired in
                        defer { fired = true }
                        return !fired
                    }
                    if first { handler(number) }
                }
                source.resume()
                sources.withLock { $0.append(source) }
            }
        }
    }
}
