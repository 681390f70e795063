/// Why the deck refused a request. The unknown cases mean "not found" (404); `conflict` means the
/// request does not fit the panel's current state (409); `tooMany` that it would pass a
/// ``CountLimit`` (422, as a text past its limit).
public enum DeckError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownPanel(String)
    case unknownItem(panel: String, item: String)
    case unknownAction(panel: String, item: String, action: String)
    case unknownOption(panel: String, option: String)
    case unknownGroup(String)
    /// No maintenance window of this id holds now.
    case unknownMaintenance(String)
    /// No incident of this id is kept.
    case unknownIncident(String)
    case conflict(String)
    case tooMany(CountLimit)

    /// A sentence for a person, naming what was asked for.
    public var message: String {
        switch self {
        case .unknownPanel(let panel):
            "There is no panel '\(panel)'."
        case .unknownItem(let panel, let item):
            "Panel '\(panel)' has no item '\(item)'."
        case .unknownAction(let panel, let item, let action):
            "Item '\(item)' of panel '\(panel)' offers no action '\(action)'."
        case .unknownOption(let panel, let option):
            "The error card of panel '\(panel)' offers no option '\(option)'."
        case .unknownGroup(let group):
            "There is no group '\(group)'."
        case .unknownMaintenance(let id):
            "No maintenance window '\(id)' is active."
        case .unknownIncident(let id):
            "There is no incident '\(id)'."
        case .conflict(let message):
            message
        case .tooMany(let limit):
            limit.description
        }
    }

    public var description: String { message }
}
