import FoundationEssentials

/// How a panel fares from one place it is checked from: the deck's own (``Deck/Configuration/location``)
/// or a remote probe's, pushed with ``Deck/setRemoteLocations(_:)``.
public struct PanelLocation: Sendable, Equatable {
    /// What the place last saw.
    public enum Health: String, Sendable, Equatable, Encodable {
        /// Its newest result is info.
        case up
        /// Its newest result is an error.
        case down
        /// No result yet.
        case loading
        /// It stopped reporting: what it last saw is too old to stand for now.
        case noData
    }

    /// The place's name, such as "eu-west".
    public var name: String
    public var health: Health
    /// One line: the info's summary while up, the error card's title while down.
    public var summary: String?
    /// When the place last changed health (with `noData`: when it last reported).
    public var since: Date?
    /// The share of the checked time the place saw the panel up, in percent with two decimals;
    /// nil before its first result.
    public var uptime: Double?

    public init(name: String, health: Health, summary: String? = nil, since: Date? = nil, uptime: Double? = nil) {
        self.name = name
        self.health = health
        self.summary = summary
        self.since = since
        self.uptime = uptime
    }

    /// `up` out of `up + down`, in percent rounded to two decimals; nil when nothing was checked.
    public static func uptime(up: Duration, down: Duration) -> Double? {
        let checked = up + down
        guard checked > .zero else { return nil }
        return ((up / checked) * 10_000).rounded() / 100
    }
}

extension PanelLocation: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, health, summary, since, uptime
    }

    /// Every field is written, nil ones as JSON null; `since` in the deck's timestamp form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(health, forKey: .health)
        try container.encode(summary, forKey: .summary)
        try container.encode(since.map(DeckJSON.timestamp), forKey: .since)
        try container.encode(uptime, forKey: .uptime)
    }
}
