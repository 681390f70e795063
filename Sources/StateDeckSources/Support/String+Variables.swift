extension String {
    /// The string with `${NAME}` replaced by the variable's value and `${NAME:-default}` by the
    /// value, or the default when the variable is unset or empty; `$$` is a literal `$`, and any
    /// other `$` is kept (so `$HOME` in a shell script is left to the shell).
    ///
    /// - Returns: the result, or the problems: each unset variable without a default, and any
    ///   `${` left open.
    func substitutingVariables(from environment: [String: String]) -> Result<String, VariableProblems> {
        var result = "", problems: [String] = []
        var rest = self[...]
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" {
                result += "$"
                rest = rest.dropFirst()
            } else if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    problems.append("has a ${ without its closing }")
                    return .failure(VariableProblems(messages: problems))
                }
                let reference = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                let (name, fallback) = reference.splitDefault()
                if let value = environment[String(name)], !(fallback != nil && value.isEmpty) {
                    result += value
                } else if let fallback {
                    result += fallback
                } else {
                    problems.append("environment variable \(name) is not set (give a default with ${\(name):-value})")
                }
            } else {
                result += "$"
            }
        }
        result += rest
        return problems.isEmpty ? .success(result) : .failure(VariableProblems(messages: problems))
    }
}

/// Why a string's variables could not all be substituted, one message per problem.
struct VariableProblems: Error {
    let messages: [String]
}

private extension Substring {
    /// `NAME:-default` split into its name and default.
    func splitDefault() -> (name: Substring, fallback: Substring?) {
        guard let separator = firstRange(of: ":-") else { return (self, nil) }
        return (self[..<separator.lowerBound], self[separator.upperBound...])
    }
}
