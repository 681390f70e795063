import Glibc

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
