import MicroHTTP
import StateDeck

/// `POST /api/incidents` body: an incident over `panels` (none or absent: an announcement), its
/// first update's `status` and `message`.
///
/// | field | rule |
/// | --- | --- |
/// | `title` | a string with some text, within ``TextLimit/title`` (200 characters and 1,000 bytes), spaces around it dropped |
/// | `panels` | an array of ids the deck has; absent: none |
/// | `status` | `investigating`, `identified` or `monitoring`; absent: `investigating` |
/// | `message` | a string with some text, within ``TextLimit/message`` (5,000 characters and 20,000 bytes), spaces around it dropped |
struct IncidentBody: Decodable {
    var title: String
    var panels: [String]?
    var status: String?
    var message: String

    /// The body of `request`, checked by the table's rules.
    static func decode(from request: HTTPRequest) throws -> IncidentBody {
        var body = try RequestBody.decode(IncidentBody.self, from: request)
        body.title = try FieldLimitError.text(body.title, field: "title", limit: .title)
        body.message = try FieldLimitError.text(body.message, field: "message", limit: .message)
        if try status(body.status ?? Incident.Status.investigating.rawValue) == .resolved {
            throw RequestBodyError(description: "field 'status' cannot be resolved for a new incident")
        }
        return body
    }

    /// Opens the incident on `deck`, written by `author`; a panel the deck does not have is a bad
    /// request, not a missing resource: the resource is the new incident.
    func open(on deck: Deck, author: String) async throws -> Incident {
        do {
            return try await deck.openIncident(title: title, panels: panels ?? [],
                                               status: try Self.status(status ?? Incident.Status.investigating.rawValue),
                                               message: message, author: author)
        } catch let error as DeckError {
            guard case .unknownPanel(let id) = error else { throw error }
            throw RequestBodyError(description: "field 'panels' names no panel '\(id)'")
        }
    }

    /// The status `value` names.
    static func status(_ value: String) throws -> Incident.Status {
        guard let status = Incident.Status(rawValue: value) else {
            let names = Incident.Status.allCases.map(\.rawValue).joined(separator: ", ")
            throw RequestBodyError(description: "field 'status' must be one of \(names)")
        }
        return status
    }
}
