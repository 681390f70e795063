/// A short message drawn above the deck, one at a time; the newest replaces the current one.
public struct Toast: Sendable, Hashable, Codable, Identifiable {
    /// Stays the same while the same panel's toast is updated in place.
    public var id: String
    public var style: Style
    public var message: String
    /// The panel the message is about, if any.
    public var panelId: String?
    /// How long the page shows it, re-armed by every new toast.
    public var durationMs: Int
    public var position: Position
    /// A button on the toast: a recovery option of the panel's error card.
    public var action: Action?

    public init(
        id: String,
        style: Style,
        message: String,
        panelId: String? = nil,
        durationMs: Int,
        position: Position,
        action: Action? = nil
    ) {
        self.id = id
        self.style = style
        self.message = message
        self.panelId = panelId
        self.durationMs = durationMs
        self.position = position
        self.action = action
    }

    /// Green, red or neutral.
    public enum Style: String, Sendable, Hashable, Codable {
        case success, error, info
    }

    /// Where the page draws it.
    public enum Position: String, Sendable, Hashable, Codable, CaseIterable {
        case top, bottom
    }

    /// A button on the toast.
    public struct Action: Sendable, Hashable, Codable {
        public var id: String
        public var label: String

        public init(id: String, label: String) {
            self.id = id
            self.label = label
        }
    }
}
