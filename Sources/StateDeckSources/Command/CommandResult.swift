import StateDeck

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a finished command left behind.
public struct CommandResult: Sendable, Hashable {
    /// How the command ended.
    public enum Termination: Sendable, Hashable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal it did not handle ended it.
        case signaled(Int32)
        /// It ran past its timeout; its process group was killed.
        case timedOut
        /// It could not be started; the reason says why.
        case launchFailed(reason: String, code: Int32)
    }

    /// How the command ended.
    public var termination: Termination
    /// Standard output, decoded as UTF-8 (invalid bytes replaced); only its beginning when
    /// `outputTruncated`.
    public var standardOutput: String
    /// The end of standard error, decoded as UTF-8.
    public var standardError: String
    /// True when standard output was longer than the runner keeps.
    public var outputTruncated: Bool
    /// From launch to the end of its output.
    public var duration: Duration
}

// MARK: - A command that never ran

extension CommandResult {
    /// The result of a command that never ran.
    init(launchFailure failure: LaunchFailure) {
        self.init(
            termination: .launchFailed(reason: failure.reason, code: failure.code),
            standardOutput: "",
            standardError: "",
            outputTruncated: false,
            duration: .zero
        )
    }
}

// MARK: - Failure

extension CommandResult {
    /// The catalogue's error for a command that did not exit with 0, nil when it did: the
    /// failure reason names the command and how it ended, the detail is the end of its standard
    /// error (or output). A full disk, told by `ENOSPC` or by the message in standard error, is
    /// `outOfSpace`.
    func failure(of command: CommandSpec) -> PanelError? {
        let full = standardError.contains("No space left on device")
        let kind: ErrorKind
        switch termination {
        case .exited(0): return nil
        case .exited, .signaled: kind = full ? .outOfSpace : .commandFailed
        case .timedOut: kind = .timeout
        case .launchFailed(let reason, let code):
            return PanelError(code == ENOSPC ? .outOfSpace : .commandFailed, failureReason: reason)
        }
        return PanelError(kind, failureReason: "\(command.displayName) \(outcome(of: command)).", detail: detail)
    }

    /// How the command ended, in words: "exited with status 3".
    func outcome(of command: CommandSpec) -> String {
        switch termination {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "was stopped by signal \(signal) (\(String(cString: strsignal(signal))))"
        case .timedOut: "ran longer than \(command.timeout.shortText) and was killed"
        case .launchFailed(let reason, _): reason
        }
    }

    /// The last lines of standard error, or of the output when standard error is empty.
    private var detail: String? {
        let error = standardError.trimmed()
        let tail = (error.isEmpty ? standardOutput.trimmed() : error)
            .lastLines(20)
        return tail.isEmpty ? nil : String(tail.suffix(2000))
    }
}
