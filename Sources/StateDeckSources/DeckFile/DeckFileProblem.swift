/// One thing wrong with a deck file, located by key path and line.
public struct DeckFileProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file as it was named when loaded.
    public var file: String
    /// The line (from 1), when known.
    public var line: Int?
    /// The key path, such as `panels[1].http.url`; empty for the file as a whole.
    public var path: String
    /// What is wrong, such as "must be an http or https URL".
    public var message: String

    /// A problem at `line` of `file`, under key path `path`.
    public init(file: String, line: Int?, path: String, message: String) {
        self.file = file
        self.line = line
        self.path = path
        self.message = message
    }

    /// `stack.yaml:7: panels[1].http.url: must be an http or https URL`.
    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return path.isEmpty ? "\(location): \(message)" : "\(location): \(path): \(message)"
    }
}
