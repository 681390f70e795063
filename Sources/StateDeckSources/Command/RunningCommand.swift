import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One launched command: its process, the readers of its output and what joins them.
final class RunningCommand: Sendable {
    /// How long output is still read after the command exits: a background child that inherited
    /// the pipes must not hold the result back.
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

    /// Kills the whole process group, unless the command already exited.
    func kill(timedOut: Bool = false) {
        completion.killIfRunning(timedOut: timedOut) { [process] in
            _ = killpg(process.id, SIGKILL)
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
