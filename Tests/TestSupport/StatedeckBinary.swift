import Foundation

/// The `statedeck` binary that `swift build --build-tests` puts beside the test bundle, for the
/// suites that run it as a child process.
public enum StatedeckBinary {
    /// Its location.
    ///
    /// - Throws: ``NotBuilt`` when no executable is there.
    public static func url() throws(NotBuilt) -> URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("statedeck")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw NotBuilt(path: executable.path)
        }
        return executable
    }

    /// What one run to the end printed, and its exit status.
    public struct Run: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// Runs `statedeck arguments` to its end, off the cooperative pool.
    public static func run(_ arguments: [String]) async throws -> Run {
        let executable = try url()
        return try await offPool {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // Read before waiting, so the child never waits on a full pipe; what it prints here
            // is far below a pipe's 64 KiB, so one pipe can be read to its end before the other.
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            let reported = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus,
                       standardOutput: String(decoding: printed, as: UTF8.self),
                       standardError: String(decoding: reported, as: UTF8.self))
        }
    }

    public struct NotBuilt: Error, CustomStringConvertible {
        public let path: String

        public var description: String {
            "statedeck is not at \(path): run swift build --build-tests first"
        }
    }
}
