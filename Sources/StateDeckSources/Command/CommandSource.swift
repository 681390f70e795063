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

    /// A source running `command` and reading its output as `output`.
    public init(command: CommandSpec, output: OutputFormat = .auto, runner: CommandRunner = CommandRunner()) {
        self.command = command
        self.output = output
        self.runner = runner
    }

    /// Runs the command once; throws a `PanelError`, or `CancellationError` after killing the
    /// command's process group when the task was cancelled.
    public func load() async throws -> Info {
        let result = try await runner.perform(command)
        var info = try Info(output: result.standardOutput, format: output)
        info.summary = info.summary ?? "Ran in \(result.duration.shortText)"
        return info
    }
}
