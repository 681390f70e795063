import StateDeck

/// A deck file's `incidents:`: where each incident or announcement opened, updated or resolved
/// through the API is told.
///
/// ```yaml
/// incidents:
///   notify:
///     - webhook: { url: "https://hooks.example/statedeck" }
///     - command: { shell: 'apprise -b "$STATEDECK_MESSAGE" "$APPRISE_URL"' }
/// ```
///
/// Each entry names one target as a panel's `notify:` entry does (`webhook` or `command`, same
/// keys); `after`, `remind` and `gather` are for outages, so an incident's entry takes none: each
/// step is told at once, in order.
public struct IncidentsSpec: Sendable, Hashable {
    public var notify: [NotifySpec.Target]

    public init(notify: [NotifySpec.Target] = []) {
        self.notify = notify
    }

    /// The targets, commands run with `runner`.
    func targets(runner: CommandRunner) -> [any NotificationTarget] {
        notify.map { NotifySpec(target: $0, rule: NotifyRule()).entry(runner: runner).target }
    }
}

// MARK: - Reading

extension IncidentsSpec {
    /// `{ notify: [entries] }`.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["notify"]) else { return nil }
        guard let items = map["notify"]?.list() else {
            if map["notify"] == nil { self.init() } else { return nil }
            return
        }
        let targets = items.map { item in item.mapping(allowing: ["webhook", "command"]).flatMap(NotifySpec.Target.init(reading:)) }
        guard !targets.contains(nil) else { return nil }
        self.init(notify: targets.compactMap(\.self))
    }
}
