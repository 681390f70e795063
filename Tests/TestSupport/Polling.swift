import Foundation

/// Polls `condition` until it holds or `timeout` passes; true if it held. For state that
/// settles asynchronously (counters, closed connections) without fixed sleeps.
///
/// The default is generous: it costs nothing when the condition holds, and a machine busy with
/// the other tests running in parallel must not fail a test that would pass.
public func waitUntil(timeout: Duration = defaultWait, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        usleep(2000)
    }
}

/// How long `waitUntil` and `eventually` wait by default.
public let defaultWait = Duration.seconds(20)

/// `waitUntil` for async conditions: polls without blocking a thread of the cooperative pool.
public func eventually(
    timeout: Duration = defaultWait, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    try await eventuallyValue(timeout: timeout) { try await condition() ? true : nil } ?? false
}

/// `eventually` for a value: polls `value` until it is not nil or `timeout` passes.
public func eventuallyValue<Value>(
    timeout: Duration = defaultWait, _ value: () async throws -> Value?
) async rethrows -> Value? {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let found = try await value() { return found }
        if ContinuousClock.now >= deadline { return nil }
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
