import StateDeck

extension PanelSpec {
    static let sourceKeys = ["http", "tcp", "command", "file"]
    static let keys = ["id", "title"] + sourceKeys + PanelSettings.keys
        + ["placeholder", "toasts", "recovery", "actions"]

    /// Reads one entry of `panels`, with `defaults` for the settings it does not give.
    init?(reading node: ConfigNode, defaults: PanelSettings) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let id = map.required("id")?.identifier()
        let title = map["title"]?.text()
        let settings = defaults.overridden(by: map)
        let source = Self.source(in: map, settings: settings)
        let placeholder = map["placeholder"].flatMap(Info.init(reading:))
        let toasts = map["toasts"].flatMap(Toasts.init(reading:))
        let recovery = map["recovery"].flatMap(RecoverySpec.list(reading:))
        let actions = map["actions"].flatMap(CommandAction.list(reading:))
        guard let id, let source else { return nil }
        self.init(id: id, title: title ?? id, source: source, settings: settings, placeholder: placeholder,
                  toasts: toasts ?? Toasts(), recovery: recovery ?? [], actions: actions ?? [])
    }

    /// The one source key of the panel.
    private static func source(in map: ConfigMapping, settings: PanelSettings) -> SourceSpec? {
        let keys = map.present(sourceKeys)
        guard let key = keys.first, let node = map[key] else {
            map.node.problem("needs a source: one of \(sourceKeys.joined(separator: ", "))")
            return nil
        }
        for extra in keys.dropFirst() {
            map[extra]?.problem("a panel has exactly one source, and this one already has \(key)")
        }
        let source: SourceSpec? = switch key {
        case "http": HTTPSource(reading: node, timeout: settings.timeout).map(SourceSpec.http)
        case "tcp": TCPSource(reading: node, timeout: settings.timeout).map(SourceSpec.tcp)
        case "command": CommandSource(reading: node, timeout: settings.timeout).map(SourceSpec.command)
        default: FileSource(reading: node).map(SourceSpec.file)
        }
        return keys.count == 1 ? source : nil
    }
}

extension PanelSpec.Toasts {
    /// `{ success, failure }`.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["success", "failure"]) else { return nil }
        self.init(success: map["success"]?.text(), failure: map["failure"]?.text())
    }
}
