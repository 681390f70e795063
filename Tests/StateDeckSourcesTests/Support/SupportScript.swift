import Foundation

/// A Python script of `Tests/support/` that prints one line once it serves, then serves until its
/// standard input closes: when `stop()` closes it, or when the test process ends.
final class SupportScript: Sendable {
    /// What it printed first, without the line break.
    let firstLine: String
    private let process: Process
    private let input: Pipe

    /// `Tests/support/`.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("support")

    /// The Python of `<repo>/.venv`, which `Tests/support/venv.sh` makes, for a script that needs
    /// packages of `Tests/support/requirements.txt`.
    static let venvPython = folder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".venv/bin/python").path

    /// Starts `Tests/support/NAME` with `arguments`, run by `python` (the system's `python3` unless
    /// given), and waits, blocking, for its first line.
    init(_ name: String, arguments: [String] = [], python: String = "python3") throws {
        let script = Self.folder.appendingPathComponent(name)
        let process = Process(), input = Pipe(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script.path] + arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { break }
            printed.append(more)
        }
        firstLine = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .newlines)
        self.process = process
        self.input = input
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
    }

    /// The script printed something else than it should have.
    struct Failure: Error, CustomStringConvertible {
        let script: String
        let printed: String
        var description: String { "\(script) did not print what it serves on: \(printed)" }
    }
}
