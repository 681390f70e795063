import Foundation

/// Runs blocking socket work on a thread of its own and awaits its result, so that test clients
/// blocked in `poll` never starve the cooperative pool the deck and deferred replies run on.
func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Polls `condition` until it holds or `timeout` passes; true if it held.
func eventually(
    timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
}

/// Runs `work(index)` for every index on `threads` threads at once; the results in index order.
func concurrently<Value: Sendable>(
    _ count: Int, threads: Int, _ work: @escaping @Sendable (Int) -> Value
) async -> [Value] {
    let results = await withTaskGroup(of: [(Int, Value)].self) { group in
        for lane in 0..<threads {
            group.addTask {
                (try? await offPool {
                    stride(from: lane, to: count, by: threads).map { ($0, work($0)) }
                }) ?? []
            }
        }
        var all: [(Int, Value)] = []
        for await part in group { all += part }
        return all
    }
    return results.sorted { $0.0 < $1.0 }.map(\.1)
}
