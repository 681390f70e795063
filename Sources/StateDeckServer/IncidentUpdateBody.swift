import MicroHTTP
import StateDeck

/// `POST /api/incidents/{id}/updates` body: the incident's new `status` (`resolved` resolves it)
/// and a `message`, by ``IncidentBody``'s rules for those fields; `status` is required.
struct IncidentUpdateBody: Decodable {
    var status: Incident.Status
    var message: String

    private enum CodingKeys: String, CodingKey {
        case status, message
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try IncidentBody.status(try container.decode(String.self, forKey: .status))
        message = try FieldLimitError.text(try container.decode(String.self, forKey: .message), field: "message",
                                           limit: .message)
    }

    static func decode(from request: HTTPRequest) throws -> IncidentUpdateBody {
        try RequestBody.decode(IncidentUpdateBody.self, from: request)
    }
}
