import Foundation

/// Polls `condition` until it holds or `timeout` passes; true if it held. For state that
/// settles asynchronously (counters, closed connections) without fixed sleeps.
public func waitUntil(timeout: Duration = .seconds(5), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        usleep(2000)
    }
}

/// `waitUntil` for async conditions: polls without blocking a thread of the cooperative pool.
public func eventually(
    timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
}

/// Runs blocking socket work on a thread of its own and awaits its result.
///
/// The test clients block on `poll`; run on the cooperative pool (two threads on a two-core
/// machine) they could starve the deck's loads and the server's deferred replies they wait for.
public func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
