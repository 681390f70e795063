import Locking
import MicroHTTP

/// Wrong tokens counted per client address, so that tokens cannot be guessed at the server's
/// speed: past `limit.failures` within `limit.window` of an address's first failure, a token from
/// it is refused (429) until that window ends, unless it is one accepted from that address before
/// (``accept(_:from:)``). Whoever shares the address (a NAT, a proxy not named with
/// `--trusted-proxy`) cannot lock out a user already in with wrong tokens of their own, while any
/// other token from there stays held to the limit: past it, a right one is answered as a wrong
/// one, so a guess tells nothing. No rule can do more with the address alone: a right token
/// served whoever brings it makes every guess count. The cost: a token in use from that address
/// can be tried there at the server's speed; tokens StateDeck makes are 32 random bytes, beyond
/// guessing at any speed.
///
/// An IPv6 client counts by its /64, which one host can fill with addresses. The table holds at
/// most `limit.addresses` windows, and as many addresses' accepted callers: when full, ended
/// windows go, then the one ending first; an address's accepted callers go at random.
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
    /// The callers (by name) whose right token each address brought while under its limit.
    private let accepted = Locked([[UInt8]: Set<String>]())

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

    /// Keeps that `caller`'s right token came from `client`: over its limit, it is still served.
    func accept(_ caller: String, from client: ClientAddress) {
        let key = Self.key(of: client)
        accepted.withLock { accepted in
            if accepted[key]?.contains(caller) == true { return }
            if accepted[key] == nil, accepted.count >= limit.addresses, let any = accepted.keys.randomElement() {
                accepted[any] = nil
            }
            accepted[key, default: []].insert(caller)
        }
    }

    /// Whether `caller`'s token came from `client` while it was under its limit.
    func hasAccepted(_ caller: String, from client: ClientAddress) -> Bool {
        accepted.withLock { $0[Self.key(of: client)]?.contains(caller) == true }
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
