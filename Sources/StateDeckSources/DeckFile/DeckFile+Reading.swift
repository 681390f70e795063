import StateDeck

extension DeckFile {
    static let keys = ["title", "defaults", "toasts", "panels"]

    /// Reads the whole document, reporting every problem; nil when a required part is unusable.
    init?(reading root: ConfigNode) {
        guard let map = root.mapping(allowing: Self.keys) else { return nil }
        let title = map["title"]?.text()
        let toasts = map["toasts"]?.mapping(allowing: ["duration", "position"])
        let duration = toasts?["duration"]?.duration()
        let position = toasts?["position"]?.choice(of: Toast.Position.allCases)
        var defaults = PanelSettings()
        if let settings = map["defaults"]?.mapping(allowing: PanelSettings.keys) {
            defaults = defaults.overridden(by: settings)
        }
        guard let list = map.required("panels")?.list() else { return nil }
        if list.isEmpty { map["panels"]?.problem("needs at least one panel") }
        let panels = list.map { PanelSpec(reading: $0, defaults: defaults) }
        ConfigNode.reportReusedIds(zip(list, panels.map { $0?.id }))
        guard !panels.contains(where: { $0 == nil }) else { return nil }
        self.init(title: title ?? "StateDeck", panels: panels.compactMap(\.self))
        toastDuration = duration ?? toastDuration
        toastPosition = position ?? toastPosition
    }
}
