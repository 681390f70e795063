import MicroHTTP
import StateDeck

extension DeckError {
    /// Unknown panels, items, actions and options are 404; a request the panel's state does not
    /// allow is 409.
    var response: HTTPResponse {
        switch self {
        case .conflict:
            .apiError(.conflict, code: "conflict", message: description)
        default:
            .apiError(.notFound, code: "not_found", message: description)
        }
    }
}
