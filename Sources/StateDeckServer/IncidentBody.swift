import MicroHTTP
import StateDeck

/// `POST /api/incidents` body: an incident over `panels` (none or absent: an announcement), its
/// first update's `status` and `message`.
///
/// | field | rule |
/// | --- | --- |
/// | `title` | a string of 1 to 200 characters, spaces around it dropped |
/// | `panels` | an array of ids the deck has; absent: none |
/// | `status` | `investigating`, `identified` or `monitoring`; absent: `investigating` |
/// | `message` | a string of 1 to 5,000 characters, spaces around it dropped |
struct IncidentBody: Decodable {
    var title: String
    var panels: [String]?
    var status: String?
    var message: String

    static let titleLimit = 200
    static let messageLimit = 5_000

    /// The body of `request`, checked by the table's rules.
    static func decode(from request: HTTPRequest) throws -> IncidentBody {
        var body = try RequestBody.decode(IncidentBody.self, from: request)
        body.title = try text(body.title, field: "title", limit: titleLimit)
        body.message = try text(body.message, field: "message", limit: messageLimit)
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

    /// `value` without the spaces around it, which must be 1 to `limit` characters.
    static func text(_ value: String, field: String, limit: Int) throws -> String {
        let text = value.trimmed()
        guard !text.isEmpty, text.count <= limit else {
            throw RequestBodyError(description: "field '\(field)' must have 1 to \(limit) characters")
        }
        return text
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
