import StateDeck

extension PanelSettings {
    static let keys = ["refresh", "timeout", "retry", "minimumLoading", "loading"]

    /// These settings with the keys of `map` applied.
    func overridden(by map: ConfigMapping) -> PanelSettings {
        var settings = self
        if let refresh = map["refresh"]?.refresh() { settings.refresh = refresh }
        if let timeout = map["timeout"]?.duration() { settings.timeout = timeout }
        if let node = map["retry"], let retry = retry.overridden(by: node) { settings.retry = retry }
        if let minimum = map["minimumLoading"]?.duration(atLeast: .zero) { settings.minimumLoadingTime = minimum }
        if let node = map["loading"] { settings.presentation = presentation.overridden(by: node) }
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
