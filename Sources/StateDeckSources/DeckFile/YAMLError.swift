/// Why a YAML text has no node tree.
enum YAMLError: Error, Equatable {
    /// What was being parsed when a problem was found, as libyaml names it.
    struct Context: Equatable {
        let text: String
        let mark: YAMLMark
    }

    /// libyaml's problem at `mark` (nil when libyaml ran out of memory), or the composer's (an
    /// undefined alias, a second document, too deep a nesting).
    case syntax(problem: String, mark: YAMLMark?, context: Context?)
    /// Keys that appear more than once in one mapping, sorted; `mark` is where the first of them
    /// first appears.
    case duplicateKeys([String], mark: YAMLMark)
}
