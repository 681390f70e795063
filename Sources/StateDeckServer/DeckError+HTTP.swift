import MicroHTTP
import StateDeck

extension DeckError {
    /// Unknown panels, groups, items, actions, options and active maintenance windows are 404; a
    /// request the panel's state does not allow is 409, and one past a ``CountLimit`` 422
    /// `too_many` naming it, as a text past its limit is 422 `over_limit`: every overflow of what
    /// operators write is a 422 naming the limit.
    var response: HTTPResponse {
        switch self {
        case .conflict:
            .apiError(.conflict, code: "conflict", message: description)
        case .tooMany(let limit):
            .overLimit(.unprocessableContent, code: "too_many", message: description,
                       limit: #"{"what":"# + JSONString.quoted(limit.what) + #","count":\#(limit.count)}"#)
        default:
            .apiError(.notFound, code: "not_found", message: description)
        }
    }
}
