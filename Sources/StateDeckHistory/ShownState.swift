import FoundationEssentials
import StateDeck

/// What a panel shows, as its history tells: kept per panel so that a restarted server draws
/// it at once. Forced states never change it.
public struct ShownState: Sendable, Equatable {
    var shown: ViewState.Phase?
    var info: Info?
    var error: StoredError?
    var stale = false

    public init() {}

    /// The state after `change`.
    mutating func apply(_ change: PanelChange) {
        switch change.state {
        case .loaded(let loaded):
            shown = .loaded
            stale = change.cause == .view
            info = loaded
        case .error(let failure):
            shown = .error
            stale = false
            error = StoredError(failure)
        case .initial:
            self = ShownState()
        case .loading:
            break
        }
    }

    /// The state a store kept as ``stored``'s columns.
    public init(stored columns: StoredColumns) {
        shown = columns.shown.flatMap(ViewState.Phase.init(rawValue:))
        info = columns.info.flatMap { try? JSONDecoder().decode(Info.self, from: Data($0.utf8)) }
        error = columns.error.flatMap { try? JSONDecoder().decode(StoredError.self, from: Data($0.utf8)) }
        stale = columns.stale
    }

    /// The columns a store keeps: the phase's name, the info and the error as JSON, and staleness.
    public struct StoredColumns: Sendable, Equatable {
        public var shown: String?
        public var info: String?
        public var error: String?
        public var stale: Bool

        public init(shown: String?, info: String?, error: String?, stale: Bool) {
            self.shown = shown
            self.info = info
            self.error = error
            self.stale = stale
        }
    }

    /// This state as the columns a store keeps.
    public var stored: StoredColumns {
        let encoder = JSONEncoder()
        func json(_ value: (some Encodable)?) -> String? {
            guard let value, let data = try? encoder.encode(value) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        return StoredColumns(shown: shown?.rawValue, info: json(info), error: json(error), stale: stale)
    }

    /// What the shown state is, as the deck takes it.
    var viewState: ViewState? {
        switch shown {
        case .loaded: info.map(ViewState.loaded)
        case .error: error.map { .error($0.panelError) }
        default: nil
        }
    }
}

/// A panel error's words, without what only the running deck has (its recovery handlers).
struct StoredError: Codable, Sendable, Equatable {
    var kind: ErrorKind
    var title: String
    var message: String
    var failureReason: String?
    var recoverySuggestion: String?
    var detail: String?

    init(_ error: PanelError) {
        kind = error.kind
        title = error.title
        message = error.message
        failureReason = error.failureReason
        recoverySuggestion = error.recoverySuggestion
        detail = error.detail
    }

    var panelError: PanelError {
        PanelError(kind, title: title, message: message, failureReason: failureReason,
                   recoverySuggestion: recoverySuggestion, detail: detail)
    }
}
