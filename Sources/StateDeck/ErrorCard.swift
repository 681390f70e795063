/// The universal error view configuration: everything the page needs to draw an error, already
/// decided (copy, icon, buttons). Built by ``ErrorPresenter`` from a ``PanelError``.
public struct ErrorCard: Sendable, Hashable, Codable {
    public var kind: ErrorKind
    public var title: String
    public var description: String
    /// A short icon name the page maps to a glyph, such as "wifi-off".
    public var icon: String
    /// True while a recovery option runs.
    public var showPreloader: Bool
    public var failureReason: String?
    public var recoverySuggestion: String?
    /// Technical detail for debugging, such as the loader's own error.
    public var detail: String?
    public var options: [Option]

    public init(
        kind: ErrorKind,
        title: String,
        description: String,
        icon: String,
        showPreloader: Bool = false,
        failureReason: String? = nil,
        recoverySuggestion: String? = nil,
        detail: String? = nil,
        options: [Option] = []
    ) {
        self.kind = kind
        self.title = title
        self.description = description
        self.icon = icon
        self.showPreloader = showPreloader
        self.failureReason = failureReason
        self.recoverySuggestion = recoverySuggestion
        self.detail = detail
        self.options = options
    }

    /// A button on the card: `POST /api/panels/{panel}/recover {"option": id}` runs it.
    public struct Option: Sendable, Hashable, Codable, Identifiable {
        public var id: String
        public var label: String
        public var role: ActionRole

        public init(id: String, label: String, role: ActionRole) {
            self.id = id
            self.label = label
            self.role = role
        }
    }
}
