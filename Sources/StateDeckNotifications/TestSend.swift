import StateDeck

/// A test send: the `test` notification told to one target in one attempt, and what came of it,
/// for a person trying a target before an outage depends on it.
///
/// | the target | outcome |
/// | --- | --- |
/// | took it (a webhook's 2xx, a command's status 0) | `sent` |
/// | refused it or failed (its message, as a delivery's) | `failed` |
/// | gave no answer within ``timeLimit`` | `failed`: "no answer within 8 s"; the attempt is ended |
///
/// A test send is neither retried, nor kept, nor counted with the outages' notifications.
public struct TestSend: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case sent
        case failed(String)
    }

    public var target: String
    public var outcome: Outcome
    /// From the attempt's start to its end, on the deck's clock.
    public var duration: Duration

    /// How long a test send may take: under the 10 s a server of a cluster waits for the
    /// leader's answer to an action, so a slow target's answer is its own, not `no_leader`.
    public static let timeLimit: Duration = .seconds(8)

    public init(target: String, outcome: Outcome, duration: Duration) {
        self.target = target
        self.outcome = outcome
        self.duration = duration
    }

    /// Tells `notification` to `target` in one attempt, ended past `limit` on `clock`.
    public static func send<C: Clock<Duration>>(_ notification: DeckNotification, to target: any NotificationTarget,
                                                within limit: Duration = timeLimit, clock: C) async -> TestSend {
        let start = clock.now
        let outcome = await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    try await target.attempt(notification)
                    return .sent
                } catch {
                    return .failed("\(error)")
                }
            }
            // A deadline fixed before the attempt starts, however late this task sleeps.
            let deadline = start.advanced(by: limit)
            group.addTask {
                guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return nil }
                return .failed("\(target.name): no answer within \(limit.shortText)")
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failed("\(target.name): no answer")
        }
        return TestSend(target: target.name, outcome: outcome, duration: start.duration(to: clock.now))
    }
}
