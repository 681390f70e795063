import FoundationEssentials
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child process started with `posix_spawn` in a process group of its own, its standard input
/// on /dev/null (or a pipe holding what it is given) and its standard output and error on pipes
/// whose read ends the parent keeps.
///
/// Not Foundation's `Process`: it learns of an exit only once every descendant has closed a socket
/// they all inherit, so a background child would hold the result back, a detached one forever.
struct ChildProcess: Sendable {
    /// The process id, which is also its process group id.
    let id: pid_t
    /// The read end of standard output.
    let output: Int32
    /// The read end of standard error.
    let error: Int32

    /// Serialises pipe creation with spawning, so that a pipe is close-on-exec before another
    /// command can be spawned and inherit it (`pipe2` is not visible to Swift on Glibc).
    ///
    /// A lock guarding no value: ThreadSanitizer loses track of a critical section that spans
    /// `posix_spawn` (a vfork-style clone), and would report any access to a value inside it as a
    /// race.
    private static let spawning = Locked(())

    /// Starts `arguments` (the first one an absolute path) with exactly `environment`, and `input`
    /// (at most ``CommandSpec/maximumInput`` bytes) on its standard input.
    static func launch(arguments: [String], environment: [String: String], input: [UInt8]? = nil) throws(LaunchFailure) -> ChildProcess {
        try spawning.withLock { _ in
            Result { () throws(LaunchFailure) in try launchUnlocked(arguments, environment, input) }
        }.get()
    }

    private static func launchUnlocked(
        _ arguments: [String], _ environment: [String: String], _ input: [UInt8]?
    ) throws(LaunchFailure) -> ChildProcess {
        let inputEnd = try input.map { bytes throws(LaunchFailure) in try PipeEnds.holding(bytes) }
        defer { inputEnd.map { _ = close($0) } }
        let outputPipe = try PipeEnds()
        let errorPipe: PipeEnds
        do { errorPipe = try PipeEnds() } catch {
            outputPipe.closeBoth()
            throw error
        }
        // The child has its own copies of the write ends; the parent's would keep the pipes open.
        defer {
            close(outputPipe.write)
            close(errorPipe.write)
        }
        do {
            let id = try spawn(arguments, environment: environment, input: inputEnd, output: outputPipe.write,
                               error: errorPipe.write)
            return ChildProcess(id: id, output: outputPipe.read, error: errorPipe.read)
        } catch {
            close(outputPipe.read)
            close(errorPipe.read)
            throw error
        }
    }
}

// MARK: - Pipes

/// A pipe's two descriptors, both close-on-exec.
struct PipeEnds {
    let read: Int32
    let write: Int32

    init() throws(LaunchFailure) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw LaunchFailure(reason: "cannot create a pipe: \(String(errno: errno))", code: errno)
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        read = ends[0]
        write = ends[1]
    }

    func closeBoth() {
        close(read)
        close(write)
    }

    /// The read end of a pipe that holds `bytes` and is closed for writing: a command reads them,
    /// then the end of its input. Written whole at once, so they must fit the pipe.
    static func holding(_ bytes: [UInt8]) throws(LaunchFailure) -> Int32 {
        guard bytes.count <= CommandSpec.maximumInput else {
            throw LaunchFailure(reason: "standard input of \(bytes.count) bytes; at most \(CommandSpec.maximumInput)", code: E2BIG)
        }
        let pipe = try PipeEnds()
        defer { close(pipe.write) }
        guard writeWhole(bytes, to: pipe.write) else {
            close(pipe.read)
            throw LaunchFailure(reason: "cannot write standard input: \(String(errno: errno))", code: errno)
        }
        return pipe.read
    }
}

/// Writes `bytes` to `descriptor` in one call; false when it wrote less.
private func writeWhole(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
}

// MARK: - Spawning

extension ChildProcess {
    /// `posix_spawn` with a new process group, default signal dispositions and an empty signal
    /// mask: a server that ignores SIGPIPE or SIGTERM must not pass that on to its commands.
    static func spawn(
        _ arguments: [String], environment: [String: String], input: Int32?, output: Int32, error: Int32
    ) throws(LaunchFailure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
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
            throw LaunchFailure(reason: "cannot start \(program): \(String(errno: code))", code: code)
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

// MARK: - Killing

extension ChildProcess {
    /// Sends SIGKILL to every process of the group (`killpg`): a background child that ignores
    /// SIGTERM and SIGHUP, as `nohup` makes it, ends all the same.
    ///
    /// A descendant that left the group with `setsid` is not followed. That would take
    /// `prctl(PR_SET_CHILD_SUBREAPER)`, which is not worth it: it holds for the whole process (a
    /// program embedding StateDeck, whatever else it starts, the browser `--open` starts), every
    /// orphan would then have to be reaped without stealing the exit of a child someone else waits
    /// for, and an orphan no longer tells which command it came from. A session of its own is also
    /// how a command asks to outlive itself: a recovery option starting a server.
    func killGroup() {
        _ = killpg(id, SIGKILL)
    }
}

// MARK: - Exit

extension ChildProcess {
    /// Waits on a thread of its own for the process to exit, kills what it left in its group,
    /// reports the exit to `completion`, then calls `afterExit`.
    ///
    /// The exit is first observed without reaping: until the process is reaped its id still names
    /// the group, so neither this kill nor one racing with the exit can signal a group whose id the
    /// system has already handed out again.
    func watchExit(reportingTo completion: CommandCompletion, then afterExit: @escaping @Sendable () -> Void) {
        DetachedThread.run { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(id), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
            completion.leaderExiting()
            // Children must not outlive their command: left running, a command panel would add
            // some at every refresh, and they would stay after StateDeck stops.
            killGroup()
            var status: Int32 = 0
            while waitpid(id, &status, 0) == -1, errno == EINTR {}
            completion.exited(CommandResult.Termination(waitStatus: status))
            afterExit()
        }
    }
}

extension CommandResult.Termination {
    /// Decodes a `waitpid` status (the C macros are not visible to Swift).
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}
