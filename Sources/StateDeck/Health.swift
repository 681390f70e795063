/// Whether a panel's source is up: decided by the deck alone (``after(_:cause:)``), sent as
/// ``PanelState/health`` and with each ``PanelChange``, and read as it is by every surface (the
/// page, badges, metrics, the history's tallies, notifications).
///
/// The raw values are what history stores keep.
public enum Health: Int, Sendable, Equatable, CaseIterable {
    /// No result and no load yet.
    case unknown = 0
    /// Loading for the first time since the panel started.
    case loading = 1
    case up = 2
    case down = 3

    /// The health after a change to `state` for `cause`, this being the health before.
    ///
    /// Only results (of loads and pushes) say whether the source works: info is up, an error is
    /// down; so does a result that did not come when it was due (down). A first load makes an unknown panel loading. Nothing else changes it: a dismissed
    /// error card hides the card, it does not make the source work, so the panel stays down (its
    /// stale info or initial state shown) until a result says otherwise; a debug-forced state
    /// says nothing of the source, nor does a mark (a maintenance window opening or ending, flapping
    /// beginning or ending).
    public func after(_ state: ViewState, cause: PanelChange.Cause) -> Health {
        switch (cause, state) {
        case (.debug, _), (.mark, _): self
        case (let cause, .loaded) where cause.isResult: .up
        case (let cause, .error) where cause.isResult: .down
        case (.deadline, .error): .down
        case (_, .loading) where self == .unknown: .loading
        default: self
        }
    }

    /// What a debug-forced `state` shows while a command holds the panel, this being the health
    /// shown before: the state read as if it were a result, a forced reset back to unknown. Only
    /// the panel's state document shows it (a preview); changes carry the real health.
    public func forced(_ state: ViewState) -> Health {
        if case .initial = state { return .unknown }
        return after(state, cause: .push)
    }

    /// The name the API uses.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .loading: "loading"
        case .up: "up"
        case .down: "down"
        }
    }
}

extension Health: Codable {
    /// Written as its ``name``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let health = Self.allCases.first(where: { $0.name == name }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no health named '\(name)'")
        }
        self = health
    }
}
