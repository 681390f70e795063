extension CronSchedule {
    /// One of the five fields of a cron expression.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case minute
        case hour
        case dayOfMonth = "day-of-month"
        case month
        case dayOfWeek = "day-of-week"

        /// The values a field may name; day-of-week also takes 7 for Sunday.
        var range: ClosedRange<Int> {
            switch self {
            case .minute: 0...59
            case .hour: 0...23
            case .dayOfMonth: 1...31
            case .month: 1...12
            case .dayOfWeek: 0...7
            }
        }

        /// The names a field takes for its values, from its first value.
        var names: [String] {
            switch self {
            case .month: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
            case .dayOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
            default: []
            }
        }
    }
}

/// The values a field allows, as bits (bit `n` for value `n`).
struct CronField: Sendable, Hashable {
    let bits: UInt64
    /// Whether the field starts with `*` (`*`, `*/2`): as in classic cron, day-of-month and
    /// day-of-week then restrict days together (both must match); otherwise either may.
    let isWildcard: Bool

    func contains(_ value: Int) -> Bool { bits & (1 << UInt64(value)) != 0 }

    /// The smallest allowed value at or above `value`.
    func first(atOrAfter value: Int) -> Int? {
        guard value < 64 else { return nil }
        let above = bits & (UInt64.max << UInt64(max(value, 0)))
        return above == 0 ? nil : above.trailingZeroBitCount
    }

    /// The largest allowed value at or below `value`.
    func last(atOrBefore value: Int) -> Int? {
        guard value >= 0 else { return nil }
        let below = value >= 63 ? bits : bits & ((1 << UInt64(value + 1)) - 1)
        return below == 0 ? nil : 63 - below.leadingZeroBitCount
    }

    /// Reads one field: a list of `*`, `n`, `a-b`, each with an optional `/step` (`n/step` runs
    /// from `n` to the field's end); names for months and days of the week.
    init(parsing text: Substring, as field: CronSchedule.Field) throws(CronSchedule.ParseError) {
        func failure(_ problem: String) -> CronSchedule.ParseError { CronSchedule.ParseError(field: field, problem: problem) }
        var bits: UInt64 = 0
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !item.isEmpty else { throw failure("empty item in the list \"\(text)\"") }
            let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            var step = 1
            if parts.count == 2 {
                guard !parts[1].isEmpty else { throw failure("a step is missing in \"\(item)\"") }
                guard let number = Int(parts[1]) else { throw failure("step \"\(parts[1])\" is not a number") }
                guard number >= 1 else { throw failure("step \(number) must be at least 1") }
                step = number
            }
            var low: Int
            var high: Int
            if parts[0] == "*" {
                (low, high) = (field.range.lowerBound, field == .dayOfWeek ? 6 : field.range.upperBound)
            } else if let dash = parts[0].firstIndex(of: "-") {
                let (start, end) = (parts[0][..<dash], parts[0][parts[0].index(after: dash)...])
                guard !start.isEmpty, !end.isEmpty else { throw failure("a number is missing in the range \"\(parts[0])\"") }
                low = try Self.value(start, as: field)
                high = try Self.value(end, as: field)
                // MON-SUN: Sunday closes the week when it ends a range.
                if field == .dayOfWeek, high == 0, low > 0 { high = 7 }
                guard low <= high else {
                    throw failure("range \(parts[0]) runs backwards; write it as two ranges, such as \(low)-\(field.range.upperBound),\(field.range.lowerBound)-\(high)")
                }
            } else {
                low = try Self.value(parts[0], as: field)
                high = parts.count == 2 ? field.range.upperBound : low
            }
            for value in stride(from: low, through: high, by: step) {
                bits |= 1 << UInt64(field == .dayOfWeek && value == 7 ? 0 : value)
            }
        }
        self.bits = bits
        isWildcard = text.hasPrefix("*")
    }

    /// A number within the field's range, or a name for months and days of the week.
    private static func value(_ text: Substring, as field: CronSchedule.Field) throws(CronSchedule.ParseError) -> Int {
        let range = field.range
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) {
            guard range.contains(number) else {
                throw CronSchedule.ParseError(field: field, problem: "\(number) is out of range \(range.lowerBound)-\(range.upperBound)")
            }
            return number
        }
        if let index = field.names.firstIndex(of: text.uppercased()) { return index + range.lowerBound }
        guard let first = field.names.first, let last = field.names.last else {
            throw CronSchedule.ParseError(field: field, problem: "\"\(text)\" is not a number")
        }
        throw CronSchedule.ParseError(
            field: field,
            problem: "\"\(text)\" is neither a number (\(range.lowerBound)-\(range.upperBound)) nor a name (\(first)-\(last))")
    }
}
