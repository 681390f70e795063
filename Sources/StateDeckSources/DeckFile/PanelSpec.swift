import StateDeck

/// One panel of a deck file, every default applied.
public struct PanelSpec: Sendable, Hashable {
    /// Custom toast messages.
    public struct Toasts: Sendable, Hashable {
        /// Shown instead of "<Title> is back" or "<Title> refreshed".
        public var success: String?
        /// Shown instead of "<Title>: <error title>".
        public var failure: String?

        /// Messages replacing the default ones; nil keeps a default.
        public init(success: String? = nil, failure: String? = nil) {
            self.success = success
            self.failure = failure
        }
    }

    /// Unique in the file, `[a-z0-9-]+`.
    public var id: String
    /// The heading; the id when the file gives none.
    public var title: String
    /// Where the info comes from.
    public var source: SourceSpec
    /// The file's defaults, overridden by the panel's own keys.
    public var settings: PanelSettings
    /// Drawn as a skeleton before the first load.
    public var placeholder: Info?
    /// Custom toast messages.
    public var toasts: Toasts
    /// The panel's own buttons on its error cards, before the catalogue's for the card's kind.
    public var recovery: [RecoverySpec]
    /// Commands offered on every item of the panel's list.
    public var actions: [CommandAction]

    /// A panel of a deck file, built in code.
    public init(
        id: String,
        title: String,
        source: SourceSpec,
        settings: PanelSettings = PanelSettings(),
        placeholder: Info? = nil,
        toasts: Toasts = Toasts(),
        recovery: [RecoverySpec] = [],
        actions: [CommandAction] = []
    ) {
        self.id = id
        self.title = title
        self.source = source
        self.settings = settings
        self.placeholder = placeholder
        self.toasts = toasts
        self.recovery = recovery
        self.actions = actions
    }
}
