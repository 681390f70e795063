/// One state of a panel's view: not loaded yet, loading, loaded with info, or failed.
public enum ViewState: Sendable, Equatable {
    /// No state yet, or nothing to show.
    case initial
    case loading
    case loaded(Info)
    case error(PanelError)

    /// The name of a state, without its payload.
    public enum Phase: String, Sendable, Hashable, Codable {
        case initial, loading, loaded, error
    }

    /// The state's name.
    public var phase: Phase {
        switch self {
        case .initial: .initial
        case .loading: .loading
        case .loaded: .loaded
        case .error: .error
        }
    }

    /// The info of a `loaded` state.
    public var info: Info? {
        guard case .loaded(let info) = self else { return nil }
        return info
    }

    /// The error of an `error` state.
    public var error: PanelError? {
        guard case .error(let error) = self else { return nil }
        return error
    }
}
