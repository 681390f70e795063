import MicroHTTP
import StateDeck

extension DeckError {
    /// Unknown panels, groups, items, actions, options and active maintenance windows are 404; a
    /// request the panel's state does not allow is 409.
    var response: HTTPResponse {
        switch self {
        case .conflict:
            .apiError(.conflict, code: "conflict", message: description)
        default:
            .apiError(.notFound, code: "not_found", message: description)
        }
    }
}
