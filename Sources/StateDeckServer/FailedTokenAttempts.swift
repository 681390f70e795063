import Locking
import MicroHTTP

/// Wrong tokens counted per client address, so that tokens cannot be guessed at the server's
/// speed: past `limit.failures` within `limit.window` of an address's first failure, every request
/// from it that brings a token is refused (429) until that window ends, the right token included.
/// An IPv6 client counts by its /64, which one host can fill with addresses. The table holds at
/// most `limit.addresses` windows: when full, ended windows go, then the one ending first.
final class FailedTokenAttempts: Sendable {
    struct Limit: Sendable {
        var failures = 10
        var window: Duration = .seconds(60)
        var addresses = 10_000
    }

    private struct Window {
        let end: Duration
        var failures: Int
    }

    let limit: Limit
    /// The time now, from any start: `ContinuousClock`'s, a test's own.
    private let now: @Sendable () -> Duration
    private let windows = Locked([[UInt8]: Window]())

    init(limit: Limit = Limit(), now: @escaping @Sendable () -> Duration = FailedTokenAttempts.continuousNow) {
        self.limit = limit
        self.now = now
    }

    /// How long `client` must wait before it may bring a token again; nil when it may now.
    func wait(for client: ClientAddress) -> Duration? {
        let time = now()
        return windows.withLock { windows in
            guard let window = windows[Self.key(of: client)], window.failures >= limit.failures, time < window.end
            else { return nil }
            return window.end - time
        }
    }

    /// Counts a wrong token from `client`.
    func recordFailure(of client: ClientAddress) {
        let time = now()
        let key = Self.key(of: client)
        windows.withLock { windows in
            if let window = windows[key], time < window.end {
                windows[key]?.failures = window.failures + 1
                return
            }
            if windows[key] == nil, windows.count >= limit.addresses {
                windows = windows.filter { $0.value.end > time }
                if windows.count >= limit.addresses, let first = windows.min(by: { $0.value.end < $1.value.end }) {
                    windows[first.key] = nil
                }
            }
            windows[key] = Window(end: time + limit.window, failures: 1)
        }
    }

    /// Addresses with a window in the table.
    var addressCount: Int { windows.withLock { $0.count } }

    private static func key(of client: ClientAddress) -> [UInt8] {
        client.isIPv6 ? Array(client.bytes.prefix(8)) : client.bytes
    }

    private static let start = ContinuousClock.now

    @Sendable static func continuousNow() -> Duration {
        ContinuousClock.now - start
    }
}
