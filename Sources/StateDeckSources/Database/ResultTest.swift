/// A condition on one value a database answered, as text: a column of a query's first row, a
/// Redis reply. Compared as numbers when both sides are numbers (`1.50` equals `1.5`).
public enum ResultTest: Sendable, Hashable {
    /// The value is this text, or this number.
    case equals(String)
    case contains(String)
    /// The pattern matches somewhere in the value.
    case matches(TextPattern)
    /// The value is a number less than this.
    case below(Double)
    /// The value is a number greater than this.
    case above(Double)

    /// Why `value` fails the test, or nil when it passes. `subject` names it ("Column status");
    /// `null` is what a missing value is called (`NULL`, `nil`). A pattern that gave up fails.
    func failure(of value: String?, subject: String, null: String) -> String? {
        guard let value else { return "\(subject) is \(null), expected \(expectation)." }
        let passes: Bool
        switch self {
        case .equals(let expected):
            if let number = Double(value), let wanted = Double(expected) { passes = number == wanted } else { passes = value == expected }
        case .contains(let needle): passes = value.contains(needle)
        case .matches(let pattern):
            switch pattern.firstMatch(in: value) {
            case .matched: passes = true
            case .notMatched: passes = false
            case .gaveUp(let reason): return pattern.gaveUp(on: subject, reason: reason)
            }
        case .below, .above: passes = Double(value).map(holds) ?? false
        }
        return passes ? nil : "\(subject) is \(value.excerpt(limit: 100).quoted), expected \(expectation)."
    }

    /// Whether `number` passes: for a count, which is always a number.
    func holds(for number: Double) -> Bool {
        switch self {
        case .equals(let expected): Double(expected) == number
        case .below(let limit): number < limit
        case .above(let limit): number > limit
        case .contains, .matches: false
        }
    }

    /// "\"ok\"", "to contain \"ok\"", "below 100".
    var expectation: String {
        switch self {
        case .equals(let expected): expected.quoted
        case .contains(let needle): "to contain \(needle.quoted)"
        case .matches(let pattern): "to match \(pattern.description.quoted)"
        case .below(let limit): "below \(JSONValue.number(limit).displayText)"
        case .above(let limit): "above \(JSONValue.number(limit).displayText)"
        }
    }
}
