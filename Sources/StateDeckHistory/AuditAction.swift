/// The kinds of action a person takes on a deck, each kept as an ``AuditEntry``.
///
/// | action | subject | detail | sentence |
/// | --- | --- | --- | --- |
/// | `retry` | — | — | Retried by alice |
/// | `recover` | the option's label | its id | Recovered with 'Use cached copy' by alice |
/// | `item_action` | the action's label and the item's title, as the toast says them | `action-id on item-id` | 'Restart api-2' run by alice |
/// | `debug_state` | the state forced (`loading`, `loaded`, `error`, `reset`, `live`, `modifying`) | an error's kind | Debug state error forced by design-review |
/// | `maintenance_started` | the window's reason | its panels, comma-separated | Maintenance 'Database upgrade' started by bob |
/// | `maintenance_ended` | the window's reason | its panels | Maintenance 'Database upgrade' ended by bob |
/// | `notify_test` | the target's name | — | Test notification sent to ops-slack by alice |
/// | `incident_opened` | the incident's title | its status | Incident 'Checkout slow' opened by alice |
/// | `incident_updated` | the incident's title | its status | Incident 'Checkout slow' updated (monitoring) by alice |
public enum AuditAction: String, Sendable, Hashable, CaseIterable, Codable {
    case retry
    case recover
    case itemAction = "item_action"
    case debugState = "debug_state"
    case maintenanceStarted = "maintenance_started"
    case maintenanceEnded = "maintenance_ended"
    case notifyTest = "notify_test"
    case incidentOpened = "incident_opened"
    case incidentUpdated = "incident_updated"

    /// What a person reads of an entry of this kind, without its signature: the table above.
    func phrase(subject: String, detail: String) -> String {
        switch self {
        case .retry: "Retried"
        case .recover: "Recovered with '\(subject)'"
        case .itemAction: "'\(subject)' run"
        case .debugState: "Debug state \(subject) forced"
        case .maintenanceStarted: "Maintenance '\(subject)' started"
        case .maintenanceEnded: "Maintenance '\(subject)' ended"
        case .notifyTest: "Test notification sent to \(subject)"
        case .incidentOpened: "Incident '\(subject)' opened"
        case .incidentUpdated: detail.isEmpty ? "Incident '\(subject)' updated" : "Incident '\(subject)' updated (\(detail))"
        }
    }
}
