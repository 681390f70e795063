import FoundationEssentials

/// An instant as the API and deck files take it, ISO 8601 with its offset:
/// `2026-11-25T10:42:00Z`, `2026-11-25T10:42:00.250Z`, `2026-12-01T02:00:00+01:00`.
///
/// Read by hand, every field checked against its range: a date parser rolls `T25:61:61` or
/// 30 February over into the days after, and a time someone mistyped would then be taken as
/// another. Leap seconds (`:60`) are refused: the clocks and stores count none, so no instant
/// StateDeck wrote or keeps is one. Offsets reach ±18:00, as far as any zone goes.
///
/// | part | form | range |
/// | --- | --- | --- |
/// | date | `YYYY-MM-DD` | month 1 to 12, day within the month (29 February in leap years) |
/// | time | `Thh:mm:ss`, then `.` and any fraction (kept to the millisecond) | hour 0 to 23, minute and second 0 to 59 |
/// | offset | `Z`, `+hh:mm`, `-hh:mm` (or without the colon) | up to 18:00 |
public enum ISO8601Time {
    /// Why a text is not an instant.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Not of the form above at all.
        case notATime
        /// A field beyond its range: its name, the value written, the values it may take.
        case outOfRange(field: String, value: Int, range: ClosedRange<Int>)
        /// A day the month does not have: 30 February, 31 April.
        case noSuchDay(day: Int, month: Int, year: Int)
        /// An offset beyond ±18:00, as written (`+19:00`).
        case offsetOutOfRange(String)

        public var description: String {
            switch self {
            case .notATime:
                "it is not an ISO 8601 time"
            case .outOfRange(let field, let value, let range):
                "\(field) \(value) is out of range (\(range.lowerBound) to \(range.upperBound))"
            case .noSuchDay(let day, let month, let year):
                "\(ISO8601Time.monthNames[month - 1]) \(year) has no day \(day) (it has \(ISO8601Time.days(inMonth: month, of: year)))"
            case .offsetOutOfRange(let offset):
                "offset \(offset) is out of range (-18:00 to +18:00)"
            }
        }
    }

    /// The instant `text` writes.
    public static func parse(_ text: String) throws(Problem) -> Date {
        var reader = Reader(Array(text.utf8))
        let year = try reader.number(digits: 4)
        try reader.expect("-")
        let month = try reader.number(digits: 2, field: "month", within: 1...12)
        try reader.expect("-")
        let day = try reader.number(digits: 2, field: "day", within: 1...31)
        guard day <= days(inMonth: month, of: year) else { throw .noSuchDay(day: day, month: month, year: year) }
        try reader.expect("T")
        let hour = try reader.number(digits: 2, field: "hour", within: 0...23)
        try reader.expect(":")
        let minute = try reader.number(digits: 2, field: "minute", within: 0...59)
        try reader.expect(":")
        let second = try reader.number(digits: 2, field: "second", within: 0...59)
        let milliseconds = try reader.fractionInMilliseconds()
        let offset = try reader.offsetInSeconds()
        guard reader.isAtEnd else { throw .notATime }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second - offset)
        return Date(timeIntervalSince1970: Double(seconds * 1000 + milliseconds) / 1000)
    }

    fileprivate static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                         "September", "October", "November", "December"]

    /// 28 to 31, by the proleptic Gregorian calendar.
    fileprivate static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's `days_from_civil`, the inverse of
    /// ``DeckJSON``'s `civil_from_days`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The text's bytes, read from the front.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { index == bytes.count }

        private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func expect(_ character: Unicode.Scalar) throws(Problem) {
            guard next == UInt8(ascii: character) else { throw .notATime }
            index += 1
        }

        /// Exactly `digits` decimal digits; a `field` out of `range` is named.
        mutating func number(digits: Int, field: String? = nil, within range: ClosedRange<Int>? = nil) throws(Problem) -> Int {
            var value = 0
            for _ in 0..<digits {
                guard let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw .notATime }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            if let field, let range, !range.contains(value) { throw .outOfRange(field: field, value: value, range: range) }
            return value
        }

        /// `.` and one or more digits, as whole milliseconds (further digits dropped); 0 without.
        mutating func fractionInMilliseconds() throws(Problem) -> Int64 {
            guard next == UInt8(ascii: ".") else { return 0 }
            index += 1
            var milliseconds: Int64 = 0
            var count = 0
            while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                if count < 3 { milliseconds = milliseconds * 10 + Int64(byte - UInt8(ascii: "0")) }
                count += 1
                index += 1
            }
            guard count > 0 else { throw .notATime }
            for _ in count..<max(count, 3) { milliseconds *= 10 }
            return milliseconds
        }

        /// `Z`, or `+hh:mm` / `-hh:mm` (the colon optional), in seconds east of UTC.
        mutating func offsetInSeconds() throws(Problem) -> Int {
            guard let sign = next else { throw .notATime }
            index += 1
            if sign == UInt8(ascii: "Z") { return 0 }
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { throw .notATime }
            let hours = try number(digits: 2)
            if next == UInt8(ascii: ":") { index += 1 }
            let minutes = try number(digits: 2, field: "offset minute", within: 0...59)
            let seconds = hours * 3600 + minutes * 60
            guard seconds <= 18 * 3600 else {
                throw .offsetOutOfRange("\(Character(Unicode.Scalar(sign)))\(hours):\(minutes < 10 ? "0" : "")\(minutes)")
            }
            return sign == UInt8(ascii: "-") ? -seconds : seconds
        }
    }
}
