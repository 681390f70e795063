import FoundationEssentials

/// A panel's history of view states and the values derived from it (`isInitialLoading`,
/// `latestValidInfo`, `latestError`, …): what the page needs to choose what to draw.
///
/// The derived values cover the whole logical history: they are kept as running values, so only
/// the newest ``displayLimit`` entries are stored (for display) and memory stays bounded.
///
/// ``isInitialLoading`` stays true over consecutive loadings until the first info or error since
/// the last reset.
public struct ViewStateHistory: Sendable, Equatable {
    /// How many entries are kept for display.
    public static let displayLimit = 50

    /// A state's name and when it was set.
    public struct Entry: Sendable, Hashable, Codable {
        public var state: ViewState.Phase
        public var at: Date

        public init(state: ViewState.Phase, at: Date) {
            self.state = state
            self.at = at
        }

        private enum CodingKeys: String, CodingKey {
            case state, at
        }

        /// `at` is written as ``DeckJSON/timestamp(_:)`` text directly: a panel state carries up
        /// to 50 entries, and handing each date to the encoder's date strategy cost more than
        /// the rest of the state (a restored deck of 1,000 panels encodes 100,000 at start-up).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state, forKey: .state)
            try container.encode(DeckJSON.timestamp(at), forKey: .at)
        }
    }

    /// The newest entries, oldest first, at most ``displayLimit``.
    public private(set) var entries: [Entry]
    /// The newest state's phase; `initial` once reset.
    public private(set) var phase: ViewState.Phase = .initial
    /// The info of the newest `loaded` state, even if an error came after it.
    public private(set) var latestInfo: Info?
    /// The error of the newest `error` state, even if info came after it.
    public private(set) var latestError: PanelError?
    /// The newest state that is neither `initial` nor `loading`: `loaded` or `error`.
    public private(set) var latestNonLoading: ViewState?
    /// Ids of list items with an action in flight.
    public var modifyingIds: [String]?

    /// A history holding one `initial` state.
    public init(at date: Date) {
        self.init(entries: [Entry(state: .initial, at: date)])
    }

    private init(entries: [Entry]) {
        self.entries = entries
    }

    /// A history continued from stored parts: the newest `entries`, the newest info and error,
    /// and `shown`, the state it showed (loaded or error), which becomes the newest state.
    init(restoring entries: [Entry], latestInfo: Info?, latestError: PanelError?, shown: ViewState?) {
        self.entries = Array(entries.suffix(Self.displayLimit))
        self.latestInfo = latestInfo
        self.latestError = latestError
        if let shown, shown.phase == .loaded || shown.phase == .error {
            latestNonLoading = shown
            phase = shown.phase
        }
    }

    /// The state the panel is in: what a mark (a window opening or ending, flapping ending) carries.
    var current: ViewState {
        switch phase {
        case .initial: .initial
        case .loading: .loading
        case .loaded, .error: latestNonLoading ?? .initial
        }
    }

    /// The newest state is `loading`.
    public var isLoading: Bool { phase == .loading }

    /// The newest state is `loading` and no info or error was recorded since the last reset.
    public var isInitialLoading: Bool {
        isLoading && latestInfo == nil && latestError == nil
    }

    /// The info of the newest non-loading state, when that state is `loaded`.
    public var latestValidInfo: Info? { latestNonLoading?.info }

    /// The error of the newest non-loading state, when that state is `error`.
    public var latestValidError: PanelError? { latestNonLoading?.error }

    /// Appends a state.
    public mutating func setState(_ state: ViewState, at date: Date) {
        phase = state.phase
        entries.append(Entry(state: state.phase, at: date))
        if entries.count > Self.displayLimit {
            entries.removeFirst(entries.count - Self.displayLimit)
        }
        switch state {
        case .initial, .loading:
            return
        case .loaded(let info):
            latestInfo = info
        case .error(let error):
            latestError = error
        }
        latestNonLoading = state
    }

    /// Forgets everything: no entries, phase `initial`, every derived value nil or false.
    public mutating func reset() {
        self = ViewStateHistory(entries: [])
    }
}
