import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child process started with `posix_spawn` in a process group of its own, its standard input
/// on /dev/null and its standard output and error on pipes whose read ends the parent keeps.
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

    /// Starts `arguments` (the first one an absolute path) with exactly `environment`.
    static func launch(arguments: [String], environment: [String: String]) throws(LaunchFailure) -> ChildProcess {
        try spawning.withLock { _ in
            Result { () throws(LaunchFailure) in try launchUnlocked(arguments, environment) }
        }.get()
    }

    private static func launchUnlocked(_ arguments: [String], _ environment: [String: String]) throws(LaunchFailure) -> ChildProcess {
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
            let id = try spawn(arguments, environment: environment, output: outputPipe.write, error: errorPipe.write)
            return ChildProcess(id: id, output: outputPipe.read, error: errorPipe.read)
        } catch {
            close(outputPipe.read)
            close(errorPipe.read)
            throw error
        }
    }
}
