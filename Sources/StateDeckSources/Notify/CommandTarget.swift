import FoundationEssentials
import StateDeck

/// Tells a notification by running a command: the notification is in `STATEDECK_*` variables and
/// its JSON on standard input, never in an argument (``CommandPlaceholder``). A status other than
/// 0 is a failed delivery, not retried: a command that wants retries (Apprise, say) has its own.
///
/// A gathered message gives `STATEDECK_MESSAGE` and `STATEDECK_EVENT` its own, and lists the
/// notifications whose JSON fits standard input (``CommandSpec/maximumInput``), counting the rest:
/// `STATEDECK_PANEL` and `STATEDECK_PANELS` their panels' ids joined by commas, `STATEDECK_TITLE`
/// their titles joined by ", " and `STATEDECK_TITLES` one a line, each of these two ending "and
/// 480 more" when some are left out; `STATEDECK_COUNT` all of them and `STATEDECK_MORE` those
/// left out.
public struct CommandTarget: NotificationTarget {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let command: CommandSpec
    public let runner: CommandRunner

    public init(command: CommandSpec, runner: CommandRunner = CommandRunner()) {
        self.command = command
        self.runner = runner
    }

    public var name: String { "command \(command.arguments.first ?? "")" }

    /// What it runs, where and with which variables: entries running the same command gather.
    public var address: String {
        let environment = command.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return (["command", command.workingDirectory ?? ""] + command.arguments + environment).joined(separator: "\u{1F}")
    }

    /// The command for `notification`: the notification in variables, its JSON on standard input.
    public func command(for notification: DeckNotification) throws -> CommandSpec {
        var command = command.giving([
            .message: notification.message, .event: notification.event.rawValue, .panel: notification.panel,
            .title: notification.title,
        ])
        let variables: [String: String?] = [
            "STATEDECK_NOTIFICATION_ID": notification.id, "STATEDECK_GROUP": notification.group, "STATEDECK_DOWN_SECONDS": String(notification.downSeconds),
            "STATEDECK_ERROR_KIND": notification.error?.kind, "STATEDECK_ERROR_TITLE": notification.error?.title,
            "STATEDECK_ERROR_MESSAGE": notification.error?.message,
        ]
        command.environment.merge(variables.compactMapValues(\.self)) { $1 }
        command.standardInput = try Array(DeckJSON.makeEncoder().encode(notification))
        return command
    }

    /// The command for `gathered`, as ``command(for:)-(DeckNotification)`` for one notification:
    /// what fits standard input listed, the rest counted, in the JSON and the variables alike.
    public func command(for gathered: GatheredNotification) throws -> CommandSpec {
        let (listed, json) = try gathered.listing(within: CommandSpec.maximumInput)
        let panels = listed.panels.joined(separator: ",")
        let titles = listed.notifications.map(\.title) + (listed.more > 0 ? ["and \(listed.more) more"] : [])
        var command = command.giving([
            .message: listed.message, .event: listed.event.rawValue, .panel: panels,
            .title: titles.joined(separator: ", "),
        ])
        let variables = [
            "STATEDECK_NOTIFICATION_ID": gathered.id, "STATEDECK_COUNT": String(listed.count), "STATEDECK_MORE": String(listed.more), "STATEDECK_PANELS": panels,
            "STATEDECK_TITLES": titles.joined(separator: "\n"),
        ]
        command.environment.merge(variables) { $1 }
        command.standardInput = json
        return command
    }

    public func deliver(_ notification: DeckNotification) async throws {
        try await run(command(for: notification))
    }

    public func deliver(_ gathered: GatheredNotification) async throws {
        try await run(command(for: gathered))
    }

    private func run(_ command: CommandSpec) async throws {
        let result = try await runner.run(command)
        switch result.termination {
        case .exited(0): return
        case .exited(let status):
            let said = result.standardError.trimmed().split(separator: "\n").last
            throw Failure(description: "\(name) exited with status \(status)" + (said.map { ": \($0)" } ?? ""))
        case .signaled(let signal): throw Failure(description: "\(name) was ended by signal \(signal)")
        case .timedOut: throw Failure(description: "\(name) ran past its \(self.command.timeout.shortText)")
        case .launchFailed(let reason, _): throw Failure(description: reason)
        }
    }
}

extension NotificationTarget where Self == CommandTarget {
    /// A command, as the DSL names it: `.notify(.command(.shell(#"notify-send "$STATEDECK_MESSAGE""#)))`.
    public static func command(_ command: CommandSpec, runner: CommandRunner = CommandRunner()) -> CommandTarget {
        CommandTarget(command: command, runner: runner)
    }
}
