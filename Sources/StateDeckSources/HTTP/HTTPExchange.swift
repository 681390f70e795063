import HTTPClient
import StateDeck

/// One answer to an http source: judged against the source's expectations, then turned into info.
struct HTTPExchange {
    let source: HTTPSource
    let response: HTTPClientResponse

    var status: Int { response.status }
    var text: String { String(decoding: response.body, as: UTF8.self) }

    /// Throws the catalogue's error when the status is not expected or the check fails.
    func validate() throws(PanelError) {
        guard source.expectedStatuses?.contains(status) ?? (200..<300).contains(status) else {
            throw statusFailure()
        }
        switch source.check {
        case .contains(let needle) where !text.contains(needle):
            throw invalid("The answer does not contain \"\(needle)\".")
        case .equals(let pointer, let expected):
            let actual = try json()[pointer]
            guard actual == expected else {
                throw invalid("\(pointer) is \(actual?.jsonText ?? "missing"), not \(expected.jsonText).")
            }
        case .contains, nil:
            break
        }
    }

    /// The status, then the picked fields, or an excerpt of the body when nothing is picked. The
    /// latency is left out: it differs on every check, and info that differs is a change to
    /// record and send, so the panel's `loadMs` carries it instead.
    func info() throws(PanelError) -> Info {
        var fields = [Info.Field("Status", "\(status)")]
        let document = source.picks.isEmpty ? nil : try json()
        for pick in source.picks {
            guard let value = document?[pick.pointer] else { throw invalid("The JSON has nothing at \(pick.pointer).") }
            fields.append(Info.Field(pick.label, value.displayText))
        }
        let excerpt = text.trimmed().excerpt(limit: 2000)
        return Info(summary: "HTTP \(status)", fields: fields,
                    text: source.picks.isEmpty && !excerpt.isEmpty ? excerpt : nil)
    }

    /// The body as JSON, which a check or a pick needs.
    func json() throws(PanelError) -> JSONValue {
        guard let value = JSONValue(parsing: text) else { throw invalid("The answer is not JSON.") }
        return value
    }

    /// "GET http://… answered 503", then the start of the body.
    var detail: String {
        let excerpt = text.trimmed().excerpt(limit: 500)
        let line = "\(source.method) \(source.url.absoluteString) answered \(status)"
        return excerpt.isEmpty ? line : "\(line)\n\(excerpt)"
    }

    /// An answer the panel's expectations reject: the service may be right and the panel's
    /// `expectStatus`, `check` or `fields` wrong, so the card says where they are.
    func invalid(_ reason: String) -> PanelError {
        PanelError(.invalidResponse, failureReason: reason,
                   recoverySuggestion: "If the service is right, fix the panel's expectStatus, check or fields in the deck file.",
                   detail: detail)
    }
}
