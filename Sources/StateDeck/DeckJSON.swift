import FoundationEssentials

/// The JSON conventions of the wire contract.
public enum DeckJSON {
    /// An encoder for the deck's documents: timestamps as ISO 8601 with milliseconds in UTC,
    /// such as "2026-11-22T10:00:00.123Z"; keys sorted so that equal states encode to equal bytes.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return encoder
    }

    /// `date` as ISO 8601 with milliseconds in UTC, rounded to the nearest millisecond.
    ///
    /// Written by hand: it runs for every history entry of every published state, and a date
    /// formatter costs far more while also truncating rather than rounding.
    public static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, millisecondOfDay) = milliseconds.floorDivided(by: 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let seconds = millisecondOfDay / 1000
        guard (0...9999).contains(year) else {
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
                + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(millisecondOfDay % 1000, 3))Z"
        }
        // Four digits of year: written into the string's own 24 bytes, with no string between.
        return String(unsafeUninitializedCapacity: 24) { bytes in
            var end = 0
            func put(_ value: Int64, _ width: Int, then separator: UInt8) {
                var rest = value
                for position in (end..<end + width).reversed() {
                    bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                bytes[end + width] = separator
                end += width + 1
            }
            put(year, 4, then: UInt8(ascii: "-"))
            put(month, 2, then: UInt8(ascii: "-"))
            put(day, 2, then: UInt8(ascii: "T"))
            put(seconds / 3600, 2, then: UInt8(ascii: ":"))
            put(seconds / 60 % 60, 2, then: UInt8(ascii: ":"))
            put(seconds % 60, 2, then: UInt8(ascii: "."))
            put(millisecondOfDay % 1000, 3, then: UInt8(ascii: "Z"))
            return end
        }
    }

    /// Year, month and day of the proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970: Int64) -> (Int64, Int64, Int64) {
        let (era, dayOfEra) = (daysSince1970 + 719_468).floorDivided(by: 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Int64 {
    /// Quotient rounded towards negative infinity, and the matching non-negative remainder.
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
