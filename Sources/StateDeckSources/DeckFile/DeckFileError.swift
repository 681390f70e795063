/// Why a deck file cannot be used: every problem found in it, not only the first.
public struct DeckFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// In the order of the file's lines.
    public var problems: [DeckFileProblem]

    /// An error reporting `problems`, in the given order.
    public init(problems: [DeckFileProblem]) {
        self.problems = problems
    }

    /// One problem a line, ready for standard error.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
