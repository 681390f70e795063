import PCRE2

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
    /// not quoted. A pattern that gave up fails the test: it did not show the text matches.
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
        let passes: Bool
        switch self {
        case .present(let present): passes = present
        case .equals(let expected): passes = text == expected
        case .contains(let needle): passes = text.contains(needle)
        case .matches(let pattern):
            switch pattern.firstMatch(in: text) {
            case .matched: passes = true
            case .notMatched: passes = false
            case .gaveUp(let reason): return pattern.gaveUp(on: subject, reason: reason)
            }
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

/// A regular expression in PCRE2's syntax, compiled once when the deck file is read, each match
/// bounded by PCRE2's limits (``RegularExpression``).
public struct TextPattern: Sendable, Hashable, CustomStringConvertible {
    private let expression: RegularExpression

    /// Throws PCRE2's reason and where, for a pattern it cannot compile.
    public init(_ pattern: String) throws(RegularExpression.SyntaxError) {
        expression = try RegularExpression(pattern)
    }

    /// The pattern as written.
    public var description: String { expression.pattern }

    /// Whether the pattern matches somewhere in `text`, or the limit that ended the match first.
    public func firstMatch(in text: String) -> RegularExpression.Outcome {
        expression.firstMatch(in: text)
    }

    /// The condition's failure when the match of `subject` gave up: "The answer: the pattern
    /// "^(a+)+$" gave up after 10,000,000 steps."
    func gaveUp(on subject: String, reason: String) -> String {
        "\(subject): the pattern \(description.quoted) \(reason)."
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
