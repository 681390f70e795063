import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ChildProcess {
    /// Waits on a thread of its own for the process to exit, reports it to `completion`, then
    /// calls `afterExit`.
    ///
    /// The exit is first observed without reaping, and `completion` told, so that a kill racing
    /// with the exit can never signal a process group id the system has already handed out again.
    func watchExit(reportingTo completion: CommandCompletion, then afterExit: @escaping @Sendable () -> Void) {
        let id = id
        DetachedThread.run {
            var info = siginfo_t()
            while waitid(P_PID, id_t(id), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
            completion.leaderExiting()
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
