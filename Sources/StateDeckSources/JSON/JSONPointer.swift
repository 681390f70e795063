import Foundation

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
        tokens = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
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
