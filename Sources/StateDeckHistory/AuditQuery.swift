import FoundationEssentials

/// Which audit entries to read: of one panel or all, from `since` to `until` (both included),
/// newest first, at most `limit`.
public struct AuditQuery: Sendable, Equatable {
    public static let limits = 1...1_000
    public var panel: String?
    public var since: Date?
    public var until: Date?
    public var limit = 100

    public init(panel: String? = nil, since: Date? = nil, until: Date? = nil, limit: Int = 100) {
        self.panel = panel
        self.since = since
        self.until = until
        self.limit = limit
    }

    /// `since` and `until` in milliseconds since 1970, the whole of time when not given.
    public var range: ClosedRange<Int64> {
        (since?.millisecondsSince1970 ?? .min)...(until?.millisecondsSince1970 ?? .max)
    }

    public func matches(_ entry: AuditEntry) -> Bool {
        (panel == nil || entry.panel == panel) && range.contains(entry.at.millisecondsSince1970)
    }

    /// The entries of `entries` this query reads, newest first (by time, then id, as the stores
    /// order them), each id once.
    public func select(from entries: some Sequence<AuditEntry>) -> [AuditEntry] {
        var seen = Set<String>()
        let matching = entries.filter { matches($0) && seen.insert($0.id).inserted }
        return Array(matching.sorted { ($0.at, $0.id) > ($1.at, $1.id) }.prefix(limit))
    }
}
