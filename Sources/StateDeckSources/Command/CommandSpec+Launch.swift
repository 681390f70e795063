import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
        return try ChildProcess.launch(arguments: launched, environment: environment)
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
