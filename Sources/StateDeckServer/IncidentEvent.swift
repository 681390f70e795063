import StateDeck

/// An `incident` event as a held copy reads it: `{"id", "incident": Incident}`, the incident null
/// when it left the state document (resolved a day ago).
struct IncidentEvent: Sendable, Decodable {
    var id: String
    var incident: Incident?
}
