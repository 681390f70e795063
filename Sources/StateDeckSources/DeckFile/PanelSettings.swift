import StateDeck

/// How a panel loads and shows loading: set for every panel by the deck file's `defaults`, and
/// overridden by a panel's own keys.
public struct PanelSettings: Sendable, Hashable {
    /// Every 30 s by default; a watched file also reloads when it changes.
    public var refresh: Panel.Refresh
    /// The default limit of the panel's source.
    public var timeout: Duration
    /// Automatic retries before an error card is shown.
    public var retry: RetryPolicy
    /// The shortest time `loading` is shown.
    public var minimumLoadingTime: Duration
    /// How each kind of loading is drawn.
    public var presentation: Presentation
    /// Where the panel's outages are told; a panel's or group's list, or `none`, replaces the one
    /// it inherits.
    public var notify: NotifyDeclaration<NotifySpec> = .entries([])
    /// The ids of the panels it depends on (``Panel/dependsOn``); a panel's or group's list
    /// replaces the one it inherits.
    public var dependsOn: [String] = []

    /// The settings of a deck file without `defaults`: the core's defaults.
    public init(
        refresh: Panel.Refresh = .every(.seconds(30)),
        timeout: Duration = .seconds(10),
        retry: RetryPolicy = RetryPolicy(),
        minimumLoadingTime: Duration = .milliseconds(500),
        presentation: Presentation = Presentation()
    ) {
        self.refresh = refresh
        self.timeout = timeout
        self.retry = retry
        self.minimumLoadingTime = minimumLoadingTime
        self.presentation = presentation
    }
}

// MARK: - Reading

extension PanelSettings {
    static let keys = ["refresh", "timeout", "retry", "minimumLoading", "loading", "notify", "dependsOn"]

    /// These settings with the keys of `map` applied.
    func overridden(by map: ConfigMapping) -> PanelSettings {
        var settings = self
        if let refresh = map["refresh"]?.refresh() { settings.refresh = refresh }
        if let timeout = map["timeout"]?.duration() { settings.timeout = timeout }
        if let node = map["retry"], let retry = retry.overridden(by: node) { settings.retry = retry }
        if let minimum = map["minimumLoading"]?.duration(atLeast: .zero) { settings.minimumLoadingTime = minimum }
        if let node = map["loading"] { settings.presentation = presentation.overridden(by: node) }
        if let notify = map["notify"].flatMap(NotifySpec.list(reading:)) { settings.notify = notify }
        if let ids = map["dependsOn"]?.list()?.compactMap({ $0.identifier() }) {
            settings.dependsOn = ids.reduce(into: []) { unique, id in if !unique.contains(id) { unique.append(id) } }
        }
        return settings
    }
}

extension ConfigNode {
    /// `manual`, or the interval as a duration of at least a second.
    func refresh() -> Panel.Refresh? {
        if case .scalar("manual", _) = node.kind { return .manual }
        guard let text = string() else { return nil }
        guard let interval = Duration(parsing: text) else {
            problem("\"\(text)\" is neither manual nor a duration like 30s or 5m")
            return nil
        }
        guard interval >= .seconds(1) else {
            problem("must be at least 1 s, or manual")
            return nil
        }
        return .every(interval)
    }
}

// MARK: - Retry policy

extension RetryPolicy {
    static let keys = ["attempts", "delay", "maxDelay", "jitter"]

    /// `none`, or this policy with the keys of the mapping `node` applied.
    func overridden(by node: ConfigNode) -> RetryPolicy? {
        if case .scalar("none", _) = node.node.kind { return RetryPolicy.none }
        if case .scalar = node.node.kind {
            node.problem("must be none or a mapping of \(Self.keys.joined(separator: ", "))")
            return nil
        }
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        return RetryPolicy(
            attempts: map["attempts"]?.int(in: 1...20) ?? attempts,
            initialDelay: map["delay"]?.duration() ?? initialDelay,
            maximumDelay: map["maxDelay"]?.duration() ?? maximumDelay,
            jitter: map["jitter"]?.number(in: 0...1) ?? jitter
        )
    }
}

// MARK: - Presentation

extension Presentation {
    static let keys = ["initial", "afterInfo", "afterError"]

    /// This presentation with the keys of the mapping `node` applied.
    func overridden(by node: ConfigNode) -> Presentation {
        guard let map = node.mapping(allowing: Self.keys) else { return self }
        var presentation = self
        if let initial = map["initial"].flatMap(LoadingPresentation.init(reading:)) {
            presentation.initialLoading = initial
        }
        if let afterInfo = map["afterInfo"].flatMap(LoadingPresentation.init(reading:)) {
            presentation.loadingAfterInfo = afterInfo
        }
        if let afterError = map["afterError"].flatMap(LoadingPresentation.init(reading:)) {
            presentation.loadingAfterError = afterError
        }
        return presentation
    }
}

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
