import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ChildProcess {
    /// `posix_spawn` with a new process group, default signal dispositions and an empty signal
    /// mask: a server that ignores SIGPIPE or SIGTERM must not pass that on to its commands.
    static func spawn(
        _ arguments: [String], environment: [String: String], output: Int32, error: Int32
    ) throws(LaunchFailure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, error, STDERR_FILENO)
        // Descriptors other threads opened without close-on-exec must not leak into the command: a
        // script being written would stay "busy", a socket open. (Closing a closed one is ignored.)
        for descriptor in openDescriptors() where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var id = pid_t()
        let variables = environment.map { "\($0.key)=\($0.value)" }
        let code = arguments.withCStringArray { argv in
            variables.withCStringArray { envp in
                posix_spawn(&id, arguments[0], &actions, &attributes, argv, envp)
            }
        }
        guard code == 0 else {
            let program = arguments.first ?? ""
            throw LaunchFailure(reason: "cannot start \(program): \(String(cString: strerror(code)))", code: code)
        }
        return id
    }
}

/// The descriptors open in this process.
private func openDescriptors() -> [Int32] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd")) ?? []).compactMap { Int32($0) }
}

private extension Array where Element == String {
    /// Calls `body` with the strings as a NULL-terminated array of C strings.
    func withCStringArray<Result>(_ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        let strings = map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        return body(strings)
    }
}
