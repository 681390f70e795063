import StateDeck

extension LoadingPresentation {
    /// The presentation types, as the page names them.
    private enum Style: String, CaseIterable {
        case material, horizontal, vertical, overCurrentContent, redacted, custom

        /// The options each type takes besides `type`.
        var options: [String] {
            switch self {
            case .material, .redacted: []
            case .horizontal, .vertical: ["position", "contentOpacity", "alignment", "spacing"]
            case .overCurrentContent: ["contentOpacity", "alignment"]
            case .custom: ["message"]
            }
        }
    }

    /// A type name (`redacted`), or a mapping of `type` and that type's options.
    init?(reading node: ConfigNode) {
        if case .scalar = node.node.kind {
            guard let style = node.choice(of: Style.allCases) else { return nil }
            guard style != .custom else {
                node.problem("custom needs a message: write { type: custom, message: \"…\" }")
                return nil
            }
            self.init(style, ConfigMapping(node: node, entries: []))
            return
        }
        guard let map = node.mapping(allowing: ["type"] + Set(Style.allCases.flatMap(\.options)).sorted()),
              let style = map.required("type")?.choice(of: Style.allCases) else { return nil }
        for entry in map.entries where entry.key != "type" && !style.options.contains(entry.key) {
            entry.value.problem("is not an option of \(style.rawValue)")
        }
        self.init(style, map)
    }

    private init?(_ style: Style, _ map: ConfigMapping) {
        let opacity = map["contentOpacity"]?.number(in: 0...1) ?? 1
        let spacing = map["spacing"]?.number(in: 0...100) ?? 8
        switch style {
        case .material: self = .material
        case .redacted: self = .redacted
        case .horizontal:
            self = .horizontal(position: map["position"]?.choice(of: HorizontalPosition.allCases) ?? .trailing,
                               contentOpacity: opacity,
                               alignment: map["alignment"]?.choice(of: VerticalAlignment.allCases) ?? .center,
                               spacing: spacing)
        case .vertical:
            self = .vertical(position: map["position"]?.choice(of: VerticalPosition.allCases) ?? .bottom,
                             contentOpacity: opacity,
                             alignment: map["alignment"]?.choice(of: HorizontalAlignment.allCases) ?? .leading,
                             spacing: spacing)
        case .overCurrentContent:
            self = .overCurrentContent(contentOpacity: opacity,
                                       alignment: map["alignment"]?.choice(of: Alignment.allCases) ?? .trailing)
        case .custom:
            guard let message = map.required("message")?.text() else { return nil }
            self = .custom(message: message)
        }
    }
}
