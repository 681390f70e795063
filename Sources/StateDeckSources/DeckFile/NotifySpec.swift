import FoundationEssentials
import StateDeck

/// One entry of a deck file's `notify:` list: where a panel's outages are told, and by which rule.
///
/// ```yaml
/// notify:
///   - webhook: { url: "https://hooks.example/statedeck", headers: { Authorization: "Bearer ${TOKEN}" } }
///     after: { failures: 3 }            # or { down: 2m }, or both; successes: 2 for the way up
///   - command: { shell: 'apprise -b "$STATEDECK_MESSAGE" "$APPRISE_URL"' }
///     remind: { every: 1h, times: 3 }
///     gather: 30s                       # 10s without it; off sends each at once
/// ```
public struct NotifySpec: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        case webhook(url: URL, headers: [String: String])
        case command(CommandSpec)
    }

    public var target: Target
    public var rule: NotifyRule
}

extension NotifySpec {
    /// The core's entry, the panel carries; commands run with `runner`.
    func entry(runner: CommandRunner) -> NotifyEntry {
        let made: any NotificationTarget = switch target {
        case .webhook(let url, let headers): .webhook(url, headers: headers)
        case .command(let command): .command(command, runner: runner)
        }
        return NotifyEntry(target: made, rule: rule)
    }
}

// MARK: - Reading

extension NotifySpec {
    static let keys = ["webhook", "command", "after", "remind", "gather"]
    /// The longest gathering window: a message later than that is news nobody can act on.
    static let longestGather = Duration.seconds(3_600)
    /// How long a notify command may run when the file does not say.
    static let commandTimeout = Duration.seconds(30)

    /// A `notify:` value: a list of entries, or `none` (nothing, also in place of inherited ones
    /// and of the page's desktop notifications).
    static func list(reading node: ConfigNode) -> NotifyDeclaration<NotifySpec>? {
        if case .scalar("none", _) = node.node.kind { return NotifyDeclaration.none }
        guard let elements = node.list() else { return nil }
        let entries = elements.map(NotifySpec.init(reading:))
        return entries.contains(nil) ? nil : .entries(entries.compactMap(\.self))
    }

    /// `{ webhook | command, after, remind, gather }`.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: Self.keys), let target = Target(reading: map) else { return nil }
        let rule = NotifyRule(readingAfter: map["after"], remind: map["remind"])
        let gather = map["gather"].map(Self.gather(reading:)) ?? NotifyRule.defaultGather
        guard let rule, let gather else { return nil }
        self.init(target: target, rule: rule.gathering(gather))
    }

    /// `gather: 30s`, or `off` (each notification sent at once): at least 1 s, at most 1 h.
    static func gather(reading node: ConfigNode) -> Duration? {
        if node.node.bool == false { return .zero }
        guard let window = node.duration(atLeast: .seconds(1)) else { return nil }
        guard window <= longestGather else {
            node.problem("must be at most 1 h, or off")
            return nil
        }
        return window
    }
}

extension NotifySpec.Target {
    /// The one target of an entry's `map`: `webhook: { url, headers }` or `command: {...}`.
    init?(reading map: ConfigMapping) {
        let targets = map.present(["webhook", "command"])
        guard targets.count == 1 else {
            map.node.problem(targets.isEmpty ? "needs a target: webhook or command" : "give one target, webhook or command, not both")
            return nil
        }
        let target: Self? = if let webhook = map["webhook"] {
            webhook.mapping(allowing: ["url", "headers"]).flatMap { hook in
                hook.required("url")?.httpURL().map { .webhook(url: $0, headers: hook["headers"]?.headers() ?? [:]) }
            }
        } else {
            map["command"]?.mapping(allowing: CommandSpec.keys).flatMap {
                CommandSpec(reading: $0, timeout: NotifySpec.commandTimeout, placeholders: CommandPlaceholder.notification)
                    .map(Self.command)
            }
        }
        guard let target else { return nil }
        self = target
    }
}

extension NotifyRule {
    /// `after: { failures, down, successes }` and `remind: { every, times }`; without `after`, 3
    /// failed loads in a row, and a recovery at the first good result.
    init?(readingAfter after: ConfigNode?, remind: ConfigNode?) {
        var failures: Int? = 3
        var down: Duration?
        var successes = 1
        if let after {
            guard let map = after.mapping(allowing: ["failures", "down", "successes"]) else { return nil }
            let given = map.present(["failures", "down"])
            if !given.isEmpty {
                failures = map["failures"].flatMap { $0.int(in: 1...1_000) }
                down = map["down"].flatMap { $0.duration(atLeast: .seconds(1)) }
                if map["failures"] != nil && failures == nil || map["down"] != nil && down == nil { return nil }
            } else if map["successes"] == nil {
                after.problem("needs failures (loads in a row), down (a time), or both; and successes for the way up")
                return nil
            }
            if let node = map["successes"] {
                guard let count = node.int(in: 1...1_000) else { return nil }
                successes = count
            }
        }
        var reminder: Reminder?
        if let remind {
            guard let map = remind.mapping(allowing: ["every", "times"]) else { return nil }
            let every = map.required("every")?.duration(atLeast: .seconds(60))
            let times = map.required("times")?.int(in: 1...1_000)
            guard let every, let times else { return nil }
            reminder = Reminder(every: every, times: times)
        }
        self.init(failures: failures, down: down, successes: successes, remind: reminder)
    }
}
