import Foundation

/// Runs blocking socket work on a thread of its own and awaits its result.
///
/// The test clients block on `poll`; run on the cooperative pool (two threads on a two-core
/// machine) they could starve the deck's loads and the server's deferred replies they wait for.
func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Polls `condition` until it holds or `timeout` passes; true if it held. Never a fixed sleep.
func eventually(
    timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
}
