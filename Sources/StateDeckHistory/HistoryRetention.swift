/// How long a history store keeps each kind of record. Older ones are deleted as time passes,
/// so the file stops growing once the longest has passed.
public struct HistoryRetention: Sendable, Hashable {
    /// Every change, with its info summary and error: 7 days.
    public var changes: Duration = .seconds(7 * 86_400)
    /// Tallies of each minute: 24 hours.
    public var minutes: Duration = .seconds(86_400)
    /// Tallies of each hour: 90 days.
    public var hours: Duration = .seconds(90 * 86_400)
    /// Tallies of each day: 2 years.
    public var days: Duration = .seconds(2 * 365 * 86_400)

    public init() {}

    public func duration(of resolution: Resolution) -> Duration {
        switch resolution {
        case .minute: minutes
        case .hour: hours
        case .day: days
        }
    }

    /// The finest resolution whose tallies still reach `span` back.
    public func finestResolution(covering span: Duration) -> Resolution {
        Resolution.allCases.first { duration(of: $0) >= span } ?? .day
    }

    /// The time (milliseconds since 1970) before which changes are deleted at `now`.
    public func changesCutoff(now: Int64) -> Int64 {
        now - Int64(changes / .milliseconds(1))
    }

    /// The start (milliseconds since 1970) before which tallies of `resolution` are deleted at `now`.
    public func cutoff(of resolution: Resolution, now: Int64) -> Int64 {
        now - Int64(duration(of: resolution) / .milliseconds(1))
    }
}
