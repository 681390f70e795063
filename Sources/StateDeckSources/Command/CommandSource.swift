import StateDeck

/// Runs a command: with exit status 0 its standard output is the info (text, JSON fields or
/// items, or lines as items); any other end is the catalogue's error.
public struct CommandSource: Sendable, Hashable {
    /// What to run, where and for how long.
    public var command: CommandSpec
    /// How standard output becomes the info.
    public var output: OutputFormat
    /// Runs the command, within its output limits.
    public var runner: CommandRunner
    /// The line the command waits in for its turn to run.
    public var queue: CommandLoadQueue

    /// A source running `command` and reading its output as `output`.
    public init(
        command: CommandSpec, output: OutputFormat = .auto, runner: CommandRunner = CommandRunner(),
        queue: CommandLoadQueue = .shared
    ) {
        self.command = command
        self.output = output
        self.runner = runner
        self.queue = queue
    }

    /// Runs the command once its turn in `queue` comes; throws a `PanelError`, or
    /// `CancellationError` when the task was cancelled (waiting, or running: its process group is
    /// then killed).
    public func load() async throws -> Info {
        let result = try await queue.run { try await runner.perform(command) }
        var info = try Info(output: result.standardOutput, format: output)
        // Not the time it ran: that is the load's duration, and a summary that changes with it would
        // make every run a change.
        info.summary = info.summary ?? "Exited with status 0"
        return info
    }
}
