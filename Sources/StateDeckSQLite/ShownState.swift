import FoundationEssentials
import SQLite
import StateDeck

/// What a panel shows, as its history tells: kept per panel so that a restarted server draws
/// it at once. Forced states never change it.
struct ShownState: Equatable {
    var shown: ViewState.Phase?
    var info: Info?
    var error: StoredError?
    var stale = false

    init() {}

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

    /// The state in a `latest` row read by `SELECT …, shown, info, error, stale, …` (columns 2–5).
    init(stored row: Statement) {
        shown = row.text(2).flatMap(ViewState.Phase.init(rawValue:))
        info = row.text(3).flatMap { try? JSONDecoder().decode(Info.self, from: Data($0.utf8)) }
        error = row.text(4).flatMap { try? JSONDecoder().decode(StoredError.self, from: Data($0.utf8)) }
        stale = row.integer(5) != 0
    }

    /// The columns `shown, info, error, stale` of a `latest` row.
    var columns: [Statement.Value] {
        let encoder = JSONEncoder()
        func json(_ value: (some Encodable)?) -> Statement.Value {
            guard let value, let data = try? encoder.encode(value) else { return .null }
            return .text(String(decoding: data, as: UTF8.self))
        }
        return [shown.map { .text($0.rawValue) } ?? .null, json(info), json(error), .integer(stale ? 1 : 0)]
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
struct StoredError: Codable, Equatable {
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
