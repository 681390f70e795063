import Yams

extension DeckFileReader {
    /// The document of `text` with its line marks; nil (and a problem) when it is empty or not YAML.
    func compose(_ text: String) -> Node? {
        do {
            guard let node = try Yams.compose(yaml: text) else {
                report("the file is empty; a deck file needs at least a list of panels", at: .root, mark: nil)
                return nil
            }
            return node
        } catch let error as YamlError {
            let (mark, message) = Self.describe(error)
            report(message, at: .root, mark: mark)
        } catch {
            report("is not valid YAML: \(error)", at: .root, mark: nil)
        }
        return nil
    }

    private static func describe(_ error: YamlError) -> (mark: Mark?, message: String) {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let within = context.map { " (\($0.text) on line \($0.mark.line))" } ?? ""
            return (mark, "YAML syntax: \(problem)\(within)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return (context.mark, "the key \(duplicates.joined(separator: ", ")) appears twice in one mapping")
        default:
            return (nil, "is not valid YAML: \(error)")
        }
    }
}
