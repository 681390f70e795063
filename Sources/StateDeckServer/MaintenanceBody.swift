import MicroHTTP
import StateDeck

/// `POST /api/maintenance` body: a window over `panels` and the panels of `groups` (at least one
/// of them), for `minutes`, with a `reason` the page shows.
///
/// | field | rule |
/// | --- | --- |
/// | `panels`, `groups` | arrays of ids the deck has; together not empty |
/// | `minutes` | a whole number in 1...10080 (a week) |
/// | `reason` | a string with some text, within ``TextLimit/reason`` (200 characters and 1,000 bytes), spaces around it dropped |
struct MaintenanceBody: Decodable {
    var panels: [String]?
    var groups: [String]?
    var minutes: Int
    var reason: String

    static let minutesRange = 1...10_080

    /// The body of `request`, checked by the table's rules.
    static func decode(from request: HTTPRequest) throws -> MaintenanceBody {
        var body = try RequestBody.decode(MaintenanceBody.self, from: request)
        guard !(body.panels ?? []).isEmpty || !(body.groups ?? []).isEmpty else {
            throw RequestBodyError(description: "field 'panels' or 'groups' must name at least one panel or group")
        }
        guard minutesRange.contains(body.minutes) else {
            throw RequestBodyError(description: "field 'minutes' must be from 1 to 10080 (a week)")
        }
        body.reason = try FieldLimitError.text(body.reason, field: "reason", limit: .reason)
        return body
    }

    /// Starts the window on `deck`; an id the deck does not have is a bad request, not a missing
    /// resource: the resource is the new window.
    func start(on deck: Deck) async throws -> MaintenanceSpan {
        do {
            return try await deck.startMaintenance(panels: panels ?? [], groups: groups ?? [],
                                                   for: .seconds(minutes * 60), reason: reason)
        } catch {
            switch error {
            case .unknownPanel(let id): throw RequestBodyError(description: "field 'panels' names no panel '\(id)'")
            case .unknownGroup(let id): throw RequestBodyError(description: "field 'groups' names no group '\(id)'")
            default: throw error
            }
        }
    }
}
