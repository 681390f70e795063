/// What a caller may do, each role allowing what the one before it does and more.
///
/// | role       | may                                                                            |
/// |------------|--------------------------------------------------------------------------------|
/// | `viewer`   | read the state, history, events, badges, metrics and audit                     |
/// | `operator` | also retry, choose recovery options, run item actions, maintenance, incidents  |
/// | `designer` | also force debug states (on a `--debug` server)                                |
public enum AccessRole: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    case viewer
    case `operator`
    case designer

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .operator: 1
        case .designer: 2
        }
    }

    public static func < (lhs: AccessRole, rhs: AccessRole) -> Bool { lhs.rank < rhs.rank }
}
