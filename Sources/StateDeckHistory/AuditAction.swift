/// The kinds of action a person takes on a deck, each kept as an ``AuditEntry``.
///
/// | action | subject | detail | what | sentence |
/// | --- | --- | --- | --- | --- |
/// | `retry` | — | — | Retried | Retried by alice |
/// | `recover` | the option's label | its id | Recovered with | Recovered with 'Use cached copy' by alice |
/// | `item_action` | the action's label and the item's title, as the toast says them | `action-id on item-id` | Ran | 'Restart api-2' run by alice |
/// | `debug_state` | the state forced (`loading`, `loaded`, `error`, `reset`, `live`, `modifying`) | an error's kind | Forced debug state | Debug state error forced by design-review |
/// | `maintenance_started` | the window's reason | its panels, comma-separated | Started maintenance | Maintenance 'Database upgrade' started by bob |
/// | `maintenance_ended` | the window's reason | its panels | Ended maintenance | Maintenance 'Database upgrade' ended by bob |
/// | `notify_test` | the target's name | — | Sent a test notification to | Test notification sent to ops-slack by alice |
/// | `incident_opened` | the incident's title | its status | Opened incident | Incident 'Checkout slow' opened by alice |
/// | `incident_updated` | the incident's title | its status | Updated incident (monitoring) | Incident 'Checkout slow' updated (monitoring) by alice |
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

    /// What was done, without who nor what they wrote (the subject, which the page quotes after
    /// it): the table's `what`. A status is no one's text: the incident's goes in.
    func what(detail: String) -> String {
        switch self {
        case .retry: "Retried"
        case .recover: "Recovered with"
        case .itemAction: "Ran"
        case .debugState: "Forced debug state"
        case .maintenanceStarted: "Started maintenance"
        case .maintenanceEnded: "Ended maintenance"
        case .notifyTest: "Sent a test notification to"
        case .incidentOpened: "Opened incident"
        case .incidentUpdated: detail.isEmpty ? "Updated incident" : "Updated incident (\(detail))"
        }
    }

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
