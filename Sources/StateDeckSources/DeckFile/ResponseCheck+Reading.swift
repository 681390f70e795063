extension ResponseCheck {
    /// `{ contains: text }` or `{ pointer: /path, equals: value }`.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["contains", "pointer", "equals"]) else { return nil }
        if let contains = map["contains"] {
            if let extra = map.present(["pointer", "equals"]).first {
                map[extra]?.problem("a check is either contains, or pointer with equals, not both")
            }
            guard let text = contains.text(), map.present(["pointer", "equals"]).isEmpty else { return nil }
            self = .contains(text)
        } else {
            let pointer = map.required("pointer")?.pointer()
            let value = map.required("equals")?.jsonValue()
            guard let pointer, let value else { return nil }
            self = .equals(pointer, value)
        }
    }
}
