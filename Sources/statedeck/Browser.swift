import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opens a URL in the desktop's browser (`--open`).
enum Browser {
    /// Starts `xdg-open url` with its output to /dev/null, and reaps it on a thread of its own.
    /// Not through `CommandRunner`: xdg-open may wait for the browser it starts, and a command's
    /// timeout would kill the browser with its process group.
    static func open(_ url: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        let arguments = [strdup("xdg-open"), strdup(url)]
        defer { arguments.forEach { free($0) } }
        var child = pid_t()
        let status = posix_spawnp(&child, "xdg-open", &actions, nil, arguments + [nil], environ)
        guard status == 0 else {
            Launcher.warn("cannot open a browser: xdg-open: \(String(cString: strerror(status)))")
            return
        }
        let started = child
        DetachedThread.run {
            var exitStatus: Int32 = 0
            while waitpid(started, &exitStatus, 0) == -1, errno == EINTR {}
        }
    }
}
