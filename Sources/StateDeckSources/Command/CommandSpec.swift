import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    /// What the command reads on its standard input, at most ``maximumInput`` bytes; nil gives it
    /// /dev/null.
    public var standardInput: [UInt8]?
    /// `arguments` as a deck file writes them, `${VAR}`s not substituted: what a card shows of the
    /// command (an error card reaches every viewer, and the environment's values may be secrets).
    /// Nil shows `arguments`, which are then as written.
    public var writtenArguments: [String]?

    /// The most standard input a command is given: what a pipe holds, so it is written whole
    /// before the command starts and no thread waits for the command to read it.
    public static let maximumInput = 60 << 10

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

// MARK: - Launching

extension CommandSpec {
    /// Starts the command, after the checks that give a clear reason when it cannot start.
    func launch() throws(LaunchFailure) -> ChildProcess {
        let environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
        let program = try executable(searching: environment["PATH"])
        var launched = [program] + arguments.dropFirst()
        if let workingDirectory {
            var isFolder = false
            guard FileManager.default.fileExists(atPath: workingDirectory, isDirectory: &isFolder),
                  isFolder else {
                throw LaunchFailure(reason: "no such folder: \(workingDirectory)", code: ENOENT)
            }
            // posix_spawn cannot change folder portably here (addchdir_np is hidden from Swift):
            // a shell changes folder and replaces itself by the program, which no shell parses.
            launched = ["/bin/sh", "-c", #"cd -- "$1" && shift && exec "$@""#, "sh", workingDirectory] + launched
        }
        return try ChildProcess.launch(arguments: launched, environment: environment, input: standardInput)
    }

    /// The program's absolute path: looked up in `path` when it has no slash, like a shell does,
    /// else relative to the working directory.
    private func executable(searching path: String?) throws(LaunchFailure) -> String {
        guard let program = arguments.first, !program.isEmpty else {
            throw LaunchFailure(reason: "no command to run", code: EINVAL)
        }
        let files = FileManager.default
        guard !program.contains("/") else {
            let base = workingDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            let file = URL(fileURLWithPath: program, relativeTo: base).standardizedFileURL.path
            guard files.fileExists(atPath: file) else {
                throw LaunchFailure(reason: "no such file: \(program)", code: ENOENT)
            }
            guard files.isExecutableFile(atPath: file) else {
                throw LaunchFailure(reason: "not executable: \(program)", code: EACCES)
            }
            return file
        }
        let folders = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        guard let file = folders.map({ "\($0)/\(program)" }).first(where: files.isExecutableFile) else {
            throw LaunchFailure(reason: "command not found: \(program)", code: ENOENT)
        }
        return file
    }
}

/// Why a command could not be started, in words for the error card, with the `errno` behind it.
struct LaunchFailure: Error {
    let reason: String
    let code: Int32
}

// MARK: - Display name

extension CommandSpec {
    /// The command as a person recognises it: the script of a shell command, else the command
    /// line, as the deck file writes it.
    var displayName: String {
        let arguments = writtenArguments ?? arguments
        let line = arguments.prefix(2) == ["/bin/sh", "-c"] && arguments.count > 2
            ? arguments[2] : arguments.joined(separator: " ")
        return "`\(line.excerpt(limit: 60))`"
    }
}
