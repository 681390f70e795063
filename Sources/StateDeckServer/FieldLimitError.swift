import MicroHTTP
import StateDeck

/// A text field of a request body past its ``TextLimit``: 422 `over_limit`, the message and the
/// error's `limit` naming the field and both counts. The body is well formed (not a 400): only this
/// text is longer than StateDeck keeps.
struct FieldLimitError: Error, CustomStringConvertible {
    let field: String
    let limit: TextLimit

    var description: String {
        "field '\(field)' must have at most \(limit)"
    }

    var response: HTTPResponse {
        .overLimit(.unprocessableContent, code: "over_limit", message: description,
                   limit: #"{"field":"# + JSONString.quoted(field) + #","characters":\#(limit.characters),"bytes":\#(limit.bytes)}"#)
    }

    /// `value` without the spaces around it, which must have some text and be within `limit`:
    /// empty is a bad request (400), too long this error.
    static func text(_ value: String, field: String, limit: TextLimit) throws -> String {
        let text = value.trimmed()
        guard !text.isEmpty else { throw RequestBodyError(description: "field '\(field)' must not be empty") }
        guard limit.allows(text) else { throw FieldLimitError(field: field, limit: limit) }
        return text
    }
}
