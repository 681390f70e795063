import StateDeck

/// What a badge, the history routes and the status page need of a panel: its label, whether it is
/// up, and whether a maintenance window holds it or it flaps. A server that mirrors a deck another
/// process runs holds this and the panel's encoded documents, not its `PanelState`.
public struct PanelHeadline: Sendable, Equatable {
    /// The panel's title, or its id when the title is empty.
    public var label: String
    /// The panel's ``PanelState/health``.
    public var health: Health
    /// Whether a maintenance window holds the panel (its ``PanelState/maintenance`` is set).
    public var inMaintenance: Bool
    /// Whether the panel flaps (its ``PanelState/flapping`` is set).
    public var flapping: Bool

    public init(label: String, health: Health, inMaintenance: Bool = false, flapping: Bool = false) {
        self.label = label
        self.health = health
        self.inMaintenance = inMaintenance
        self.flapping = flapping
    }

    init(_ panel: PanelState) {
        label = panel.title.isEmpty ? panel.id : panel.title
        health = panel.health
        inMaintenance = panel.maintenance != nil
        flapping = panel.flapping != nil
    }
}
