import FoundationEssentials

/// When a panel is flapping: its health changed between up and down more than `changes` times
/// within `within` (``Deck/Configuration/flapping``; nil there turns flapping off).
///
/// | rule | |
/// | --- | --- |
/// | what counts | a change of health between up and down; to or from loading and unknown does not |
/// | begins | with the change that makes more than `changes` within `within` of it: it carries ``PanelChange/flapping`` true |
/// | counts | the changes within `within` of the newest, the one exactly `within` before it no longer |
/// | ends | `within` after the newest change, if no other came: the deck tells it with a ``PanelChange/Cause/mark`` change |
public struct FlappingRule: Sendable, Hashable {
    /// The most changes of health within `within` that are not flapping (5).
    public var changes: Int
    /// How far back changes count, and how long a panel stays steady before flapping ends (10 min).
    public var within: Duration

    public init(changes: Int = 5, within: Duration = .seconds(600)) {
        precondition(changes >= 1 && within > .zero, "A flapping rule counts at least one change over some time")
        self.changes = changes
        self.within = within
    }
}

/// A flapping panel's ``PanelState/flapping``: since when, and how often its health changed.
public struct FlappingStatus: Sendable, Equatable, Encodable {
    /// When the change that began flapping came.
    public var since: Date
    /// The changes of health within `within` of the newest.
    public var changes: Int
    /// The rule's window as people read it, "10 min": the page writes "6 changes in 10 min".
    public var within: String

    public init(since: Date, changes: Int, within: String) {
        self.since = since
        self.changes = changes
        self.within = within
    }

    private enum CodingKeys: String, CodingKey {
        case since, changes, within
    }

    /// `since` as the rest of the state writes times.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(DeckJSON.timestamp(since), forKey: .since)
        try container.encode(changes, forKey: .changes)
        try container.encode(within, forKey: .within)
    }
}
