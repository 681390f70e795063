extension Info {
    /// An entry of a list; its actions are buttons that run a panel's item action.
    public struct Item: Sendable, Hashable, Codable, Identifiable {
        public var id: String
        public var title: String
        public var subtitle: String?
        /// The buttons offered on this item; nil offers every item action of the panel.
        public var actions: [Action]?

        public init(id: String, title: String, subtitle: String? = nil, actions: [Action]? = nil) {
            self.id = id
            self.title = title
            self.subtitle = subtitle
            self.actions = actions
        }
    }

    /// A button on an item: `POST /api/panels/{panel}/items/{item}/actions/{id}` runs it.
    public struct Action: Sendable, Hashable, Codable, Identifiable {
        public var id: String
        public var label: String
        public var role: ActionRole?

        public init(id: String, label: String, role: ActionRole? = nil) {
            self.id = id
            self.label = label
            self.role = role
        }
    }
}
