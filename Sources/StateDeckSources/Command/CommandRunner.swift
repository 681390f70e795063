import Dispatch
import Locking

/// Runs commands for loaders, recovery options and item actions: no shell unless the command asks
/// for one, bounded output, and a process group that is killed as soon as the command ends (or
/// times out, or the awaiting task is cancelled), so that nothing it started in the background
/// outlives it.
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

    /// Runs `command` to its end or its timeout, and kills its process group. A command that
    /// cannot start is a result too (`launchFailed`); only cancellation throws, after the process
    /// group was killed.
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

// MARK: - A running command

/// One launched command: its process, the readers of its output and what joins them.
final class RunningCommand: Sendable {
    /// How long output is still read after the command exits: a descendant that inherited the
    /// pipes but left the process group (with `setsid`), so outlives the group's kill, must not
    /// hold the result back.
    static let drainGrace = DispatchTimeInterval.milliseconds(200)

    private let process: ChildProcess
    private let completion = CommandCompletion()
    private let output: PipeReader
    private let error: PipeReader
    private let started = ContinuousClock.now

    /// Launches `command`, reads its output within `runner`'s limits and arms its timeout.
    init(_ command: CommandSpec, runner: CommandRunner) throws(LaunchFailure) {
        process = try command.launch()
        let pipeEnded: @Sendable () -> Void = { [completion] in completion.pipeEnded() }
        output = PipeReader(descriptor: process.output, buffer: OutputBuffer(keep: .head, limit: runner.outputLimit),
                            onEnd: pipeEnded)
        error = PipeReader(descriptor: process.error, buffer: OutputBuffer(keep: .tail, limit: runner.errorLimit),
                           onEnd: pipeEnded)
        process.watchExit(reportingTo: completion) { [output, error] in
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.drainGrace) {
                output.stop()
                error.stop()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + command.timeout.dispatchInterval) { [weak self] in
            self?.kill(timedOut: true)
        }
    }

    /// Kills the whole process group, unless the command already exited (its exit kills it).
    func kill(timedOut: Bool = false) {
        completion.killIfRunning(timedOut: timedOut) { [process] in
            process.killGroup()
        }
    }

    /// Waits for the exit and the end of the output.
    func result() async -> CommandResult {
        let termination = await completion.wait()
        let output = output.output, error = error.output
        return CommandResult(
            termination: termination,
            standardOutput: output.text,
            standardError: error.text,
            outputTruncated: output.truncated,
            duration: ContinuousClock.now - started
        )
    }
}

// MARK: - Completion

/// Joins the three ends of a command (its exit and the end of its two pipes) into one result.
final class CommandCompletion: Sendable {
    private struct State {
        var exiting = false
        var exit: CommandResult.Termination?
        var timedOut = false
        var openPipes = 2
        var waiter: CheckedContinuation<CommandResult.Termination, Never>?

        /// The final termination, once the exit and the end of both pipes are known.
        var outcome: CommandResult.Termination? {
            guard let exit, openPipes == 0 else { return nil }
            return timedOut ? .timedOut : exit
        }
    }

    private let state = Locked(State())

    /// The process has exited but is not reaped yet: from now on only its exit watcher signals its
    /// group, before reaping it.
    func leaderExiting() {
        state.withLock { $0.exiting = true }
    }

    func exited(_ termination: CommandResult.Termination) {
        update { $0.exit = termination }
    }

    func pipeEnded() {
        update { $0.openPipes -= 1 }
    }

    /// Runs `kill` (under the lock) while the process has not exited.
    func killIfRunning(timedOut: Bool, _ kill: () -> Void) {
        state.withLock { state in
            guard !state.exiting else { return }
            state.timedOut = state.timedOut || timedOut
            kill()
        }
    }

    /// Waits for the exit and the end of both pipes.
    func wait() async -> CommandResult.Termination {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { state in
                if state.outcome == nil { state.waiter = continuation }
                return state.outcome
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let resume = state.withLock { state -> (() -> Void)? in
            change(&state)
            guard let outcome = state.outcome, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return { waiter.resume(returning: outcome) }
        }
        resume?()
    }
}
