/// A condition on an http source's answer: its status, a header, its body, a value of its JSON,
/// how long it took, or how long the server's certificate has left. A source's conditions must all hold.
public enum ResponseCondition: Sendable, Hashable {
    /// The status is among these.
    case status(StatusSet)
    /// The header field of this name, matched without regard to case, passes the test.
    case header(String, TextTest)
    /// The body passes the test.
    case body(TextTest)
    /// The body is JSON whose value at the pointer passes the test.
    case pointer(JSONPointer, ValueTest)
    /// The answer came within this time (the exchange's, from its turn, redirects included).
    case under(Duration)
    /// The server's certificate is valid for at least this long; failing it is `certificateExpiring`.
    case certificate(validFor: Duration)
}

/// Statuses as ranges, written like `200`, `200-299`.
public struct StatusSet: Sendable, Hashable, CustomStringConvertible {
    public var ranges: [ClosedRange<Int>]

    public init(_ ranges: [ClosedRange<Int>]) {
        self.ranges = ranges
    }

    /// Any 2xx: what a source expects when it names no status.
    public static let success = StatusSet([200...299])

    public func contains(_ status: Int) -> Bool {
        ranges.contains { $0.contains(status) }
    }

    /// `200`, `200-299`, `200 or 300-399`.
    public var description: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: " or ")
    }
}

/// A condition on the value a JSON pointer finds.
public enum ValueTest: Sendable, Hashable {
    /// The value is exactly this one (a number equals a number, never a string).
    case equals(JSONValue)
    /// There is a value (true) or none (false).
    case exists(Bool)
    /// The value is a number less than this.
    case below(Double)
    /// The value is a number greater than this.
    case above(Double)
    /// The value is a string the pattern matches.
    case matches(TextPattern)

    /// Why `value` (nil when the pointer finds none) fails the test, or nil when it passes; a
    /// pattern that gave up fails it.
    func failure(of value: JSONValue?, at pointer: JSONPointer) -> String? {
        let expected: String
        switch (self, value) {
        case (.exists(let exists), nil):
            return exists ? "\(pointer) is missing." : nil
        case (.exists(let exists), let value?):
            return exists ? nil : "\(pointer) is \(value.jsonText.excerpt(limit: 100)), expected nothing there."
        case (.equals(let wanted), _):
            guard value != wanted else { return nil }
            expected = wanted.jsonText
        case (.below(let limit), .number(let number)?):
            guard number >= limit else { return nil }
            expected = "below \(JSONValue.number(limit).displayText)"
        case (.above(let limit), .number(let number)?):
            guard number <= limit else { return nil }
            expected = "above \(JSONValue.number(limit).displayText)"
        case (.below(let limit), _):
            expected = "a number below \(JSONValue.number(limit).displayText)"
        case (.above(let limit), _):
            expected = "a number above \(JSONValue.number(limit).displayText)"
        case (.matches(let pattern), .string(let text)?):
            switch pattern.firstMatch(in: text) {
            case .matched: return nil
            case .notMatched: expected = "to match \(pattern.description.quoted)"
            case .gaveUp(let reason): return pattern.gaveUp(on: "\(pointer)", reason: reason)
            }
        case (.matches(let pattern), _):
            expected = "a string matching \(pattern.description.quoted)"
        }
        guard let value else { return "\(pointer) is missing, expected \(expected)." }
        // A number written as a string looks like a number in the message: say which it is.
        let kind = if case .string = value, self.comparesNumbers { ", a string" } else { "" }
        return "\(pointer) is \(value.jsonText.excerpt(limit: 100))\(kind), expected \(expected)."
    }

    private var comparesNumbers: Bool {
        switch self {
        case .below, .above: true
        case .equals(.number): true
        default: false
        }
    }
}
