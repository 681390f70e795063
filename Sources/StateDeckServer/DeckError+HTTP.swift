import MicroHTTP
import StateDeck

extension DeckError {
    /// Unknown panels, groups, items, actions, options and active maintenance windows are 404; a
    /// request the panel's state does not allow is 409, and one past a ``CountLimit`` 409
    /// `too_many` naming it: what frees room is a change of state (resolving, ending), as for a
    /// conflict.
    var response: HTTPResponse {
        switch self {
        case .conflict:
            .apiError(.conflict, code: "conflict", message: description)
        case .tooMany(let limit):
            .overLimit(.conflict, code: "too_many", message: description,
                       limit: #"{"what":"# + JSONString.quoted(limit.what) + #","count":\#(limit.count)}"#)
        default:
            .apiError(.notFound, code: "not_found", message: description)
        }
    }
}
