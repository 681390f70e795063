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
