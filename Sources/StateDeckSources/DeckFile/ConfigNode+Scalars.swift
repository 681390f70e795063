extension ConfigNode {
    /// The scalar's text, with `${VAR}` references substituted.
    func string() -> String? {
        guard case .scalar(let text, _) = node.kind else {
            problem("must be a single value, not a \(node.isMapping ? "mapping" : "list")")
            return nil
        }
        if node.isNull {
            problem("needs a value")
            return nil
        }
        switch text.substitutingVariables(from: reader.environment) {
        case .success(let text):
            return text
        case .failure(let problems):
            problems.messages.forEach(problem)
            return nil
        }
    }

    /// A string that is not empty.
    func text() -> String? {
        guard let text = string() else { return nil }
        guard !text.allSatisfy(\.isWhitespace) else {
            problem("must not be empty")
            return nil
        }
        return text
    }

    func int(in range: ClosedRange<Int>) -> Int? {
        guard let text = string() else { return nil }
        guard let value = Int(text), range.contains(value) else {
            problem("must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
            return nil
        }
        return value
    }

    func number(in range: ClosedRange<Double>) -> Double? {
        guard let text = string() else { return nil }
        guard let value = Double(text), range.contains(value) else {
            problem("must be a number from \(range.lowerBound) to \(range.upperBound), not \(text)")
            return nil
        }
        return value
    }

    func bool() -> Bool? {
        guard let text = string() else { return nil }
        guard let value = Bool(text.lowercased()) else {
            problem("must be true or false, not \(text)")
            return nil
        }
        return value
    }

    /// A duration such as `500ms`, `5s`, `2m` or `1h`, at least `minimum`.
    func duration(atLeast minimum: Duration = .milliseconds(1)) -> Duration? {
        guard let text = string() else { return nil }
        guard let duration = Duration(parsing: text) else {
            problem("\"\(text)\" is not a duration; write it like 500ms, 5s, 2m or 1h")
            return nil
        }
        guard duration >= minimum else {
            problem("must be at least \(minimum.shortText)")
            return nil
        }
        return duration
    }

    /// One of `choices`, such as an enum's raw values.
    func choice<Choice: RawRepresentable<String>>(of choices: [Choice]) -> Choice? {
        guard let text = string() else { return nil }
        guard let choice = choices.first(where: { $0.rawValue == text }) else {
            problem("\"\(text)\" is not allowed here\(text.hint(among: choices.map(\.rawValue)))")
            return nil
        }
        return choice
    }

    /// A list of non-empty strings.
    func strings() -> [String]? {
        guard let items = list() else { return nil }
        let strings = items.map { $0.text() }
        return strings.contains(nil) ? nil : strings.compactMap(\.self)
    }
}

private extension YAMLNode {
    var isMapping: Bool {
        if case .mapping = kind { return true }
        return false
    }
}
