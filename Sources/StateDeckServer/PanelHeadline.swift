import StateDeck

/// What a badge and the history routes need of a panel: its label and whether it is up. A server
/// that mirrors a deck another process runs holds this and the panel's encoded documents, not
/// its `PanelState`.
public struct PanelHeadline: Sendable, Equatable {
    /// The panel's title, or its id when the title is empty.
    public var label: String
    /// The panel's ``PanelState/health``.
    public var health: Health

    public init(label: String, health: Health) {
        self.label = label
        self.health = health
    }

    init(_ panel: PanelState) {
        label = panel.title.isEmpty ? panel.id : panel.title
        health = panel.health
    }
}
