/// An RFC 6901 JSON pointer, such as `/checks/0/status`: `~1` stands for `/` and `~0` for `~`.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped.
    public let tokens: [String]
    /// The pointer as written.
    public let description: String

    /// Nil unless `text` is empty (the whole document) or starts with `/`.
    public init?(_ text: String) {
        guard text.isEmpty || text.hasPrefix("/") else { return nil }
        description = text
        tokens = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(Self.unescaped)
    }

    /// `~1` as `/` and `~0` as `~`; any other `~` stays.
    private static func unescaped(_ token: Substring) -> String {
        var result = ""
        var characters = token.makeIterator()
        while let character = characters.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch characters.next() {
            case "1": result.append("/")
            case "0": result.append("~")
            case let other?: result.append("~"); result.append(other)
            case nil: result.append("~")
            }
        }
        return result
    }
}

extension JSONValue {
    /// The value `pointer` refers to, or nil when there is none.
    public subscript(pointer: JSONPointer) -> JSONValue? {
        pointer.tokens.reduce(self as JSONValue?) { value, token in
            switch value {
            case .object(let members): members[token]
            case .array(let items): Int(token).flatMap { items.indices.contains($0) ? items[$0] : nil }
            default: nil
            }
        }
    }
}
