/// A command to run: what, where, with which environment and for how long.
public struct CommandSpec: Sendable, Hashable {
    /// The program and its arguments. A program without a slash is looked up in `PATH`; a
    /// relative path is relative to `workingDirectory`.
    public var arguments: [String]
    /// The folder the command runs in; nil runs it in the server's current folder.
    public var workingDirectory: String?
    /// Variables added to the server's environment (they replace variables of the same name).
    public var environment: [String: String]
    /// How long the command may run before its whole process group is killed.
    public var timeout: Duration

    /// A command run directly, without a shell.
    public init(
        arguments: [String],
        workingDirectory: String? = nil,
        environment: [String: String] = [:],
        timeout: Duration = .seconds(10)
    ) {
        self.arguments = arguments
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.timeout = timeout
    }

    /// A script run by `/bin/sh -c`.
    public static func shell(
        _ script: String,
        workingDirectory: String? = nil,
        environment: [String: String] = [:],
        timeout: Duration = .seconds(10)
    ) -> CommandSpec {
        CommandSpec(
            arguments: ["/bin/sh", "-c", script],
            workingDirectory: workingDirectory,
            environment: environment,
            timeout: timeout
        )
    }
}
