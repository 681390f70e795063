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
