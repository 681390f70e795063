import CLaunchArguments

/// The arguments the process was started with, its path first: read instead of
/// `CommandLine.arguments`, which the Swift runtime on Linux finds by walking back from `environ`
/// and leaves empty when a preloaded library's constructor has moved `environ` with `setenv`
/// (libfaketime's does), so the server would start on the demo deck and port 8080.
public enum LaunchArguments {
    public static let all: [String] = {
        // Without glibc nothing was saved; a fully static binary (musl) loads no preloaded library.
        guard let argv = statedeck_launch_argv() else { return CommandLine.arguments }
        return (0..<Int(statedeck_launch_argc())).map { String(cString: argv[$0]!) }
    }()
}
