import FoundationEssentials

/// What reading one deck file needs everywhere: its name, folder and environment, and the problems
/// found so far. Reading goes on after a problem, so that all of them are reported at once.
final class DeckFileReader {
    let file: String
    /// Relative paths in the file are relative to this folder.
    let folder: String
    let environment: [String: String]
    /// With the column of each, to order problems of one line.
    private var found: [(problem: DeckFileProblem, column: Int)] = []

    init(file: String, folder: String, environment: [String: String]) {
        self.file = file
        self.folder = folder
        self.environment = environment
    }

    func report(_ message: String, at path: ConfigPath, mark: YAMLMark?) {
        let problem = DeckFileProblem(file: file, line: mark?.line, path: path.description, message: message)
        found.append((problem, mark?.column ?? 0))
    }

    var hasProblems: Bool { !found.isEmpty }

    /// `path` made absolute: `~` is the home folder (`HOME`), and a relative path starts at the file's folder.
    func resolve(_ path: String) -> String {
        URL(fileURLWithPath: expandingTilde(in: path), relativeTo: URL(fileURLWithPath: folder, isDirectory: true))
            .standardizedFileURL.path
    }

    /// `path` with a leading `~` or `~/` made the home folder; the path as it is without a `HOME`.
    private func expandingTilde(in path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
        return home + path.dropFirst()
    }

    /// The problems in the file's order, file-wide ones first.
    var problems: [DeckFileProblem] {
        found.enumerated()
            .sorted { ($0.element.problem.line ?? 0, $0.element.column, $0.offset)
                < ($1.element.problem.line ?? 0, $1.element.column, $1.offset) }
            .map(\.element.problem)
    }
}
