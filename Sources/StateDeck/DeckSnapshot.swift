/// The whole deck at one moment, as the `GET /api/state` document needs it.
public struct DeckSnapshot: Sendable, Equatable, Encodable {
    /// The deck's heading.
    public var title: String
    /// The panels' groups, in the order of their first panels.
    public var groups: [PanelGroup]
    /// In declaration order.
    public var panels: [PanelState]
    /// The current toast, until it expires; encoded as null when there is none.
    public var toast: Toast?
    /// The maintenance windows holding, and the next of each the deck declares.
    public var maintenance = MaintenanceStatus()
    /// The incidents open and those resolved within the last 24 h, newest first.
    public var incidents: [Incident] = []

    private enum CodingKeys: String, CodingKey {
        case title, groups, panels, toast, maintenance, incidents
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(groups, forKey: .groups)
        try container.encode(panels, forKey: .panels)
        try container.encode(toast, forKey: .toast)
        try container.encode(maintenance, forKey: .maintenance)
        try container.encode(incidents, forKey: .incidents)
    }
}
