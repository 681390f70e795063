import MicroHTTP
import StateDeck

/// `GET /api/incidents` answer: `{"incidents": [...]}`, open and past, newest opened first, at
/// most `limit` (a whole number from 1 to 500; 50 without it).
struct IncidentList: Encodable {
    var incidents: [Incident]

    static let limits = 1...500
    static let defaultLimit = 50

    /// The `limit` of `query`.
    static func limit(_ query: QueryItems) throws -> Int {
        guard let text = query["limit"] else { return defaultLimit }
        guard let limit = Int(text), limits.contains(limit) else {
            throw RequestBodyError(description: "limit must be a whole number from 1 to \(limits.upperBound), not '\(text)'")
        }
        return limit
    }
}
