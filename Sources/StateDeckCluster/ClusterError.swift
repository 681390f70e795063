/// Why a server cannot join its cluster.
public enum ClusterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store cannot be reached or refused us; libpq's message.
    case unreachable(String)
    /// A newer StateDeck made the cluster's tables.
    case newerSchema(version: Int, supported: Int)
    /// No server wrote the deck to the store in time (none could lead).
    case noDeck(waited: Duration)

    public var description: String {
        switch self {
        case .unreachable(let reason):
            "the cluster's PostgreSQL store cannot be used: \(reason)"
        case .newerSchema(let version, let supported):
            "the cluster's tables are of version \(version), made by a newer StateDeck; this one knows up to \(supported)"
        case .noDeck(let waited):
            "no server of the cluster wrote the deck to the store within \(waited)"
        }
    }
}
