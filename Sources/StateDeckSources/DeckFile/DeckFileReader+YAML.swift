extension DeckFileReader {
    /// The document of `text` with its line marks; nil (and a problem) when it is empty or not YAML.
    func compose(_ text: String) -> YAMLNode? {
        do {
            guard let node = try YAMLComposer.compose(text) else {
                report("the file is empty; a deck file needs at least a list of panels", at: .root, mark: nil)
                return nil
            }
            return node
        } catch {
            let (mark, message) = Self.describe(error)
            report(message, at: .root, mark: mark)
            return nil
        }
    }

    private static func describe(_ error: YAMLError) -> (mark: YAMLMark?, message: String) {
        switch error {
        case .syntax(let problem, let mark, let context):
            let within = context.map { " (\($0.text) on line \($0.mark.line))" } ?? ""
            return (mark, "YAML syntax: \(problem)\(within)")
        case .duplicateKeys(let keys, let mark):
            return (mark, "the key \(keys.joined(separator: ", ")) appears twice in one mapping")
        }
    }
}
