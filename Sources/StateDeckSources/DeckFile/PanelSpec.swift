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
    /// The heading it is drawn under, if any.
    public var group: PanelGroup?
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
        group: PanelGroup? = nil,
        source: SourceSpec,
        settings: PanelSettings = PanelSettings(),
        placeholder: Info? = nil,
        toasts: Toasts = Toasts(),
        recovery: [RecoverySpec] = [],
        actions: [CommandAction] = []
    ) {
        self.id = id
        self.title = title
        self.group = group
        self.source = source
        self.settings = settings
        self.placeholder = placeholder
        self.toasts = toasts
        self.recovery = recovery
        self.actions = actions
    }
}

// MARK: - Reading

extension PanelSpec {
    static let keys = ["id", "title", "group"] + SourceSpec.keys + PanelSettings.keys
        + ["placeholder", "toasts", "recovery", "actions"]

    /// Reads one entry of `panels`, with its group's settings (those of a `groups` entry), else
    /// `defaults`, for the settings it does not give.
    init?(reading node: ConfigNode, defaults: PanelSettings, groups: [GroupSpec]?) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let id = map.required("id")?.identifier()
        let title = map["title"]?.text()
        let group = map["group"]?.group(among: groups, defaults: defaults)
        let settings = (group?.settings ?? defaults).overridden(by: map)
        let source = SourceSpec(readingOneOf: map, timeout: settings.timeout)
        let placeholder = map["placeholder"].flatMap(Info.init(reading:))
        let toasts = map["toasts"].flatMap(Toasts.init(reading:))
        let recovery = map["recovery"].flatMap(RecoverySpec.list(reading:))
        let actions = map["actions"].flatMap(CommandAction.list(reading:))
        guard let id, let source else { return nil }
        self.init(id: id, title: title ?? id, group: group?.group, source: source, settings: settings,
                  placeholder: placeholder,
                  toasts: toasts ?? Toasts(), recovery: recovery ?? [], actions: actions ?? [])
    }
}

extension PanelSpec.Toasts {
    /// `{ success, failure }`.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["success", "failure"]) else { return nil }
        self.init(success: map["success"]?.text(), failure: map["failure"]?.text())
    }
}

// MARK: - Placeholder

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

// MARK: - The core's panel

extension PanelSpec {
    /// How much longer the core waits than the source: the source's own timeout, with its
    /// details, should end an attempt, not the core's.
    static let timeoutMargin = Duration.seconds(1)

    /// The core's panel: loads from the source, with the file's settings, messages, commands and
    /// notify entries; a heartbeat is pinged with the key the file sets, else its `pingKeys` one.
    func makePanel(runner: CommandRunner, pingKeys: [String: String]) -> Panel {
        var panel = Panel(id, title: title) { [source] in try await source.load() }
            .refresh(settings.refresh)
            .timeout((source.timeout ?? settings.timeout) + Self.timeoutMargin)
            .retry(settings.retry)
            .minimumLoadingTime(settings.minimumLoadingTime)
        panel.group = group
        panel.sourceKind = source.kind
        panel.presentation = settings.presentation
        panel.placeholder = placeholder
        panel.recoveryOptions = recovery.map { $0.recoveryOption(runner: runner) }
        panel.itemActions = actions.map { $0.itemAction(runner: runner) }
        panel.notify = settings.notify.map { $0.entry(runner: runner) }
        panel.dependsOn = settings.dependsOn
        if case .heartbeat(let heartbeat) = source {
            panel.heartbeat = heartbeat.heartbeat(pingPath: (heartbeat.key ?? pingKeys[id]).map { "/ping/\($0)" })
        }
        if let success = toasts.success {
            panel = panel.successMessage { _ in success }
        }
        if let failure = toasts.failure {
            panel = panel.failureMessage { _ in failure }
        }
        return panel
    }
}
