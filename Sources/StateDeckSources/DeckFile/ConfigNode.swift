import StateDeck
import YAML

/// A node of the deck file with its key path, for reading typed values. Every reader reports what
/// is wrong (with path and line) and returns nil, so that reading can go on.
struct ConfigNode {
    let node: YAMLNode
    let path: ConfigPath
    let reader: DeckFileReader

    func problem(_ message: String) {
        reader.report(message, at: path, mark: node.mark)
    }

    func child(_ node: YAMLNode, at component: ConfigPath.Component) -> ConfigNode {
        ConfigNode(node: node, path: path.appending(component), reader: reader)
    }

    /// The items of a list.
    func list() -> [ConfigNode]? {
        guard case .sequence(let items) = node.kind else {
            problem("must be a list")
            return nil
        }
        return items.enumerated().map { child($0.element, at: .index($0.offset)) }
    }

    /// A mapping whose keys must be among `keys`; others are reported, with the closest key when
    /// one is close enough to be a typo.
    func mapping(allowing keys: [String]) -> ConfigMapping? {
        guard let entries = entries() else { return nil }
        for entry in entries where !keys.contains(entry.key) {
            reader.report("unknown key\(entry.key.hint(among: keys))", at: entry.value.path, mark: entry.keyMark)
        }
        return ConfigMapping(node: self, entries: entries.filter { keys.contains($0.key) })
    }

    /// Every entry of a mapping whose keys are free, such as headers.
    func entries() -> [ConfigEntry]? {
        guard case .mapping(let pairs) = node.kind else {
            problem("must be a mapping of keys to values")
            return nil
        }
        return pairs.compactMap { key, value in
            guard case .scalar(let name, _) = key.kind else {
                reader.report("a key must be a plain string", at: path, mark: key.mark)
                return nil
            }
            return ConfigEntry(key: name, keyMark: key.mark, value: child(value, at: .key(name)))
        }
    }
}

// MARK: - Scalars

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

    /// The scalar's text as the file writes it, `${VAR}` references left as they are: what a card
    /// may show of it, since the environment's values may be secrets. Nil for anything else.
    var writtenText: String? {
        guard case .scalar(let text, _) = node.kind else { return nil }
        return text
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

    /// A string that is not empty and within `limit`: text an operator writes for people (a
    /// window's reason, the status page's words), which every page is sent.
    func text(within limit: TextLimit) -> String? {
        guard let text = text() else { return nil }
        guard limit.allows(text) else {
            problem("must have at most \(limit), not \(TextLimit.grouped(text.count)) characters and \(TextLimit.grouped(text.utf8.count)) bytes")
            return nil
        }
        return text
    }

    func int(in range: ClosedRange<Int>) -> Int? {
        value(in: range, named: "a whole number")
    }

    func number(in range: ClosedRange<Double>) -> Double? {
        value(in: range, named: "a number")
    }

    /// A value within `range`, read as Swift reads `Value` from text; `noun` names it in the problem.
    private func value<Value: LosslessStringConvertible & Comparable>(
        in range: ClosedRange<Value>, named noun: String
    ) -> Value? {
        guard let text = string() else { return nil }
        guard let value = Value(text), range.contains(value) else {
            problem("must be \(noun) from \(range.lowerBound) to \(range.upperBound), not \(text)")
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
    func duration(atLeast minimum: Duration = .milliseconds(1),
                  atMost maximum: Duration = .seconds(365 * 86_400)) -> Duration? {
        guard let text = string() else { return nil }
        guard let duration = Duration(parsing: text, maximum: .seconds(100 * 366 * 86_400)) else {
            problem("\"\(text)\" is not a duration; write it like 500ms, 5s, 2m, 1h or 7d")
            return nil
        }
        guard duration >= minimum else {
            problem("must be at least \(minimum.shortText)")
            return nil
        }
        guard duration <= maximum else {
            problem("must be at most \(maximum.components.seconds / 86_400) days")
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

// MARK: - Identifiers

extension ConfigNode {
    /// An id of lowercase letters, digits and dashes.
    func identifier() -> String? {
        guard let text = string() else { return nil }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            problem("\"\(text)\" must be lowercase letters, digits and dashes, like api-health")
            return nil
        }
        return text
    }

    /// Reports, at its `id` key, each element of a list that reuses the id of an earlier one.
    static func reportReusedIds(_ elements: some Sequence<(ConfigNode, String?)>) {
        var seen: [String: ConfigNode] = [:]
        for (element, id) in elements {
            guard let id else { continue }
            guard let earlier = seen[id] else {
                seen[id] = element
                continue
            }
            let idNode = element.node["id"].map { element.child($0, at: .key("id")) } ?? element
            idNode.problem("\(id) is already the id of \(earlier.path)")
        }
    }
}

// MARK: - JSON

extension ConfigNode {
    /// A JSON pointer such as `/checks/0/status`.
    func pointer() -> JSONPointer? {
        guard let text = string() else { return nil }
        guard let pointer = JSONPointer(text) else {
            problem("\"\(text)\" is not a JSON pointer; it starts with /, like /status")
            return nil
        }
        return pointer
    }

    /// A scalar as the JSON value it reads as: a plain `true`, `42` or `null` is typed, anything
    /// quoted is a string.
    func jsonValue() -> JSONValue? {
        guard case .scalar = node.kind else {
            problem("must be a single value: a string, a number, true, false or null")
            return nil
        }
        if node.isNull { return .null }
        if let bool = node.bool { return .bool(bool) }
        if let number = node.number { return .number(number) }
        return string().map(JSONValue.string)
    }
}

// MARK: - Mappings

/// A mapping of the deck file whose keys were checked against the allowed ones.
struct ConfigMapping {
    let node: ConfigNode
    let entries: [ConfigEntry]

    subscript(key: String) -> ConfigNode? {
        entries.first { $0.key == key }?.value
    }

    /// The value of `key`, reported missing (at the mapping's line) when absent.
    func required(_ key: String) -> ConfigNode? {
        if let value = self[key] { return value }
        node.reader.report("is required", at: node.path.appending(.key(key)), mark: node.node.mark)
        return nil
    }

    /// Which of `keys` are present, in the file's order.
    func present(_ keys: [String]) -> [String] {
        entries.map(\.key).filter(keys.contains)
    }
}

/// One key and its value in a mapping.
struct ConfigEntry {
    let key: String
    /// Where an unknown key is reported.
    let keyMark: YAMLMark
    let value: ConfigNode
}

// MARK: - Key paths

/// Where a value sits in the deck file, written like `panels[1].http.url`.
struct ConfigPath: CustomStringConvertible, Sendable {
    enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []

    static let root = ConfigPath()

    func appending(_ component: Component) -> ConfigPath {
        var path = self
        path.components.append(component)
        return path
    }

    var description: String {
        components.enumerated().map { position, component in
            switch component {
            case .key(let key): position == 0 ? key : ".\(key)"
            case .index(let index): "[\(index)]"
            }
        }.joined()
    }
}
