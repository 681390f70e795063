/// Runs commands for loaders, recovery options and item actions: no shell unless the command asks
/// for one, bounded output, and a process group that is killed (not left behind) on timeout and
/// when the awaiting task is cancelled.
public struct CommandRunner: Sendable, Hashable {
    /// How much of standard output is kept (its beginning).
    public var outputLimit: Int
    /// How much of standard error is kept (its end).
    public var errorLimit: Int

    /// A runner keeping at most `outputLimit` bytes of standard output and `errorLimit` of
    /// standard error; what a command writes beyond that is read and dropped.
    public init(outputLimit: Int = 1 << 20, errorLimit: Int = 64 << 10) {
        self.outputLimit = outputLimit
        self.errorLimit = errorLimit
    }

    /// Runs `command` to its end or its timeout. A command that cannot start is a result too
    /// (`launchFailed`); only cancellation throws, after the process group was killed.
    public func run(_ command: CommandSpec) async throws(CancellationError) -> CommandResult {
        if Task.isCancelled { throw CancellationError() }
        let running: RunningCommand
        do {
            running = try RunningCommand(command, runner: self)
        } catch {
            return CommandResult(launchFailure: error)
        }
        let result = await withTaskCancellationHandler {
            await running.result()
        } onCancel: {
            running.kill()
        }
        if Task.isCancelled { throw CancellationError() }
        return result
    }
}

extension CommandRunner {
    /// Runs `command` and throws the catalogue's error (`commandFailed`, `timeout`, `outOfSpace`)
    /// unless it exits with 0.
    public func perform(_ command: CommandSpec) async throws -> CommandResult {
        let result = try await run(command)
        if let failure = result.failure(of: command) { throw failure }
        return result
    }
}
