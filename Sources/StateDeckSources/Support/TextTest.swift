/// A condition on a text that may be missing: a header's value, an http body, a tcp banner.
public enum TextTest: Sendable, Hashable {
    /// The text is there (true) or missing (false).
    case present(Bool)
    /// The text is exactly this.
    case equals(String)
    /// The text contains this.
    case contains(String)
    /// The pattern matches somewhere in the text (anchor it with `^` and `$` for the whole).
    case matches(TextPattern)

    /// Why `text` (nil when missing) fails the test, or nil when it passes. `subject` names it in
    /// the sentence (`Header X-Mode`); a text shown elsewhere (a body, in the card's detail) is
    /// not quoted.
    func failure(of text: String?, subject: String, quotesText: Bool = true) -> String? {
        guard let text else {
            switch self {
            case .present(false): return nil
            case .present(true): return "\(subject) is missing."
            case .equals(let expected): return "\(subject) is missing, expected \(expected.quoted)."
            case .contains(let needle): return "\(subject) is missing, expected it to contain \(needle.quoted)."
            case .matches(let pattern): return "\(subject) is missing, expected it to match \(pattern.description.quoted)."
            }
        }
        let passes = switch self {
        case .present(let present): present
        case .equals(let expected): text == expected
        case .contains(let needle): text.contains(needle)
        case .matches(let pattern): pattern.matches(text)
        }
        guard !passes else { return nil }
        let shown = text.excerpt(limit: 100).quoted
        return switch self {
        case .present: "\(subject) is \(shown), expected none."
        case .equals(let expected): "\(subject) is \(shown), expected \(expected.quoted)."
        case .contains(let needle) where quotesText: "\(subject) is \(shown), expected it to contain \(needle.quoted)."
        case .contains(let needle): "\(subject) does not contain \(needle.quoted)."
        case .matches(let pattern) where quotesText: "\(subject) is \(shown), expected it to match \(pattern.description.quoted)."
        case .matches(let pattern): "\(subject) does not match \(pattern.description.quoted)."
        }
    }
}

/// A regular expression (Swift's `Regex` syntax), compiled once when the deck file is read.
///
/// `@unchecked Sendable`: `Regex` is not marked Sendable, but a compiled one is never changed
/// again (the standard library lowers its program once, atomically), so sharing it is safe.
public struct TextPattern: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let description: String
    private let regex: Regex<AnyRegexOutput>

    /// Throws the compiler's error for a pattern that is not a regular expression.
    public init(_ pattern: String) throws {
        regex = try Regex(pattern)
        description = pattern
    }

    /// Whether the pattern matches somewhere in `text`.
    public func matches(_ text: String) -> Bool {
        text.contains(regex)
    }

    public static func == (left: TextPattern, right: TextPattern) -> Bool {
        left.description == right.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }
}

extension String {
    /// The text in double quotes for messages, its quotes, backslashes and line breaks escaped.
    var quoted: String {
        var text = "\""
        for character in self {
            switch character {
            case "\"", "\\": text += "\\\(character)"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\r\n": text += "\\r\\n"
            case "\t": text += "\\t"
            default: text.append(character)
            }
        }
        return text + "\""
    }
}
