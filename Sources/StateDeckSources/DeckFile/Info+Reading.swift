import StateDeck

extension Info {
    static let keys = ["summary", "fields", "items", "image", "text"]

    /// An Info document, such as a panel's placeholder. `fields` may also be a mapping of labels
    /// to values.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        self.init(
            summary: map["summary"]?.string(),
            fields: map["fields"].flatMap(Self.fields(reading:)),
            items: map["items"]?.list()?.compactMap(Item.init(reading:)),
            image: map["image"]?.text(),
            text: map["text"]?.string()
        )
    }

    private static func fields(reading node: ConfigNode) -> [Field]? {
        if case .mapping = node.node.kind {
            return node.entries()?.compactMap { entry in entry.value.string().map { Field(entry.key, $0) } }
        }
        return node.list()?.compactMap { item in
            guard let map = item.mapping(allowing: ["label", "value"]) else { return nil }
            let label = map.required("label")?.text(), value = map.required("value")?.string()
            guard let label, let value else { return nil }
            return Field(label, value)
        }
    }
}

extension Info.Item {
    /// `{ id, title, subtitle }`.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["id", "title", "subtitle"]) else { return nil }
        let id = map.required("id")?.text(), title = map.required("title")?.text()
        let subtitle = map["subtitle"]?.string()
        guard let id, let title else { return nil }
        self.init(id: id, title: title, subtitle: subtitle)
    }
}
