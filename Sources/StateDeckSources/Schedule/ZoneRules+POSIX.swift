extension ZoneRules {
    /// A POSIX TZ rule, as in a TZif file's footer: `CET-1CEST,M3.5.0,M10.5.0/3` is one hour east
    /// of UTC, two hours in summer time from the last Sunday of March at 02:00 to the last Sunday
    /// of October at 03:00 (summer time). Offsets here are seconds east of UTC; the string counts west.
    struct POSIXRule: Sendable, Hashable {
        /// A day of the year in a rule.
        enum Day: Sendable, Hashable {
            /// `Jn`: day 1–365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0–365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (1–4, 5 the last) of month `m`.
            case monthWeek(month: Int, week: Int, weekday: Int)
        }

        /// Summer time: its offset and when it starts and ends, in seconds after local midnight.
        struct Daylight: Sendable, Hashable {
            var offset: Int
            var start: Day
            /// On the standard clock.
            var startTime: Int
            var end: Day
            /// On the summer clock.
            var endTime: Int
        }

        var standardOffset: Int
        var daylight: Daylight?

        /// Seconds east of UTC at `second` since 1970 in UTC.
        func offset(at second: Int) -> Int {
            guard let daylight else { return standardOffset }
            let (start, end) = daylightBounds(in: year(at: second), daylight)
            let inDaylight = start < end ? (start <= second && second < end) : !(end <= second && second < start)
            return inDaylight ? daylight.offset : standardOffset
        }

        /// The first change of offset after `second`.
        func transition(after second: Int) -> Transition? {
            var first: Transition?
            forEachTransition(around: second) { transition in
                if transition.instant > second, transition.instant < first?.instant ?? .max { first = transition }
            }
            return first
        }

        /// The latest change of offset at or before `second`.
        func transition(atOrBefore second: Int) -> Transition? {
            var latest: Transition?
            forEachTransition(around: second) { transition in
                if transition.instant <= second, transition.instant > latest?.instant ?? .min { latest = transition }
            }
            return latest
        }

        /// Calls `body` with the changes of the year of `second` and of the years either side.
        private func forEachTransition(around second: Int, _ body: (Transition) -> Void) {
            guard let daylight else { return }
            let year = year(at: second)
            for year in year - 1...year + 1 {
                let (start, end) = daylightBounds(in: year, daylight)
                body(Transition(instant: start, offsetBefore: standardOffset, offsetAfter: daylight.offset))
                body(Transition(instant: end, offsetBefore: daylight.offset, offsetAfter: standardOffset))
            }
        }

        /// The year on the standard clock at `second`.
        private func year(at second: Int) -> Int {
            CivilDate(daysSinceEpoch: (second + standardOffset).flooredDivision(by: 86400)).year
        }

        /// When summer time starts and ends in `year`, in seconds since 1970 in UTC.
        private func daylightBounds(in year: Int, _ daylight: Daylight) -> (start: Int, end: Int) {
            let start = Self.daysSinceEpoch(of: daylight.start, in: year) * 86400 + daylight.startTime - standardOffset
            let end = Self.daysSinceEpoch(of: daylight.end, in: year) * 86400 + daylight.endTime - daylight.offset
            return (start, end)
        }

        private static func daysSinceEpoch(of day: Day, in year: Int) -> Int {
            let newYear = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
            switch day {
            case .julian(let number):
                return newYear + number - 1 + (CivilDate.isLeapYear(year) && number >= 60 ? 1 : 0)
            case .zeroBased(let number):
                return newYear + number
            case .monthWeek(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1).daysSinceEpoch
                var day = 1 + (weekday - CivilDate.weekday(daysSinceEpoch: first) + 7) % 7 + (week - 1) * 7
                while day > CivilDate.daysInMonth(month, of: year) { day -= 7 }
                return first + day - 1
            }
        }
    }
}

extension ZoneRules.POSIXRule {
    /// Reads a TZ string; the message of what it throws says what is wrong, for `LoadError`.
    init(parsing text: String) throws(ZoneRules.LoadError.Problem) {
        var reader = Reader(characters: Array(text.utf8))
        try reader.name()
        standardOffset = -(try reader.duration(what: "standard offset", hours: -24...24))
        if reader.isAtEnd {
            daylight = nil
            return
        }
        try reader.name()
        var daylightOffset = standardOffset + 3600
        if let next = reader.peek, next != UInt8(ascii: ",") {
            daylightOffset = -(try reader.duration(what: "summer time offset", hours: -24...24))
        }
        guard reader.take(",") else { throw .init("TZ rule \(text): summer time without the dates it starts and ends") }
        let start = try reader.day()
        let startTime = reader.take("/") ? try reader.duration(what: "start time", hours: -167...167) : 7200
        guard reader.take(",") else { throw .init("TZ rule \(text): summer time without the date it ends") }
        let end = try reader.day()
        let endTime = reader.take("/") ? try reader.duration(what: "end time", hours: -167...167) : 7200
        guard reader.isAtEnd else { throw .init("TZ rule \(text): unexpected text after the end date") }
        daylight = Daylight(offset: daylightOffset, start: start, startTime: startTime, end: end, endTime: endTime)
    }

    /// The TZ string's characters and where reading is.
    private struct Reader {
        let characters: [UInt8]
        var position = 0

        var isAtEnd: Bool { position == characters.count }
        var peek: UInt8? { isAtEnd ? nil : characters[position] }
        private var text: String { String(decoding: characters, as: UTF8.self) }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard peek == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or `<` anything but `>` `>` (such as `<+0530>`).
        mutating func name() throws(ZoneRules.LoadError.Problem) {
            let start = position
            if take("<") {
                while let next = peek, next != UInt8(ascii: ">") { position += 1 }
                guard take(">") else { throw .init("TZ rule \(text): unclosed < in a zone abbreviation") }
            } else {
                // ASCII letters, either case: setting bit 0x20 lowers an upper-case letter.
                while let next = peek, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(next | 0x20) { position += 1 }
                guard position - start >= 3 else { throw .init("TZ rule \(text): zone abbreviation of fewer than 3 letters") }
            }
        }

        /// `[+-]h[h][:mm[:ss]]` in seconds, positive without a sign.
        mutating func duration(what: String, hours: ClosedRange<Int>) throws(ZoneRules.LoadError.Problem) -> Int {
            let sign = take("-") ? -1 : 1
            if sign == 1 { _ = take("+") }
            guard let hour = number(), hours.contains(sign * hour) else {
                throw .init("TZ rule \(text): \(what) expected as [+-]hh[:mm[:ss]], hours from \(hours.lowerBound) to \(hours.upperBound)")
            }
            var seconds = hour * 3600
            for unit in [60, 1] {
                guard take(":") else { break }
                guard let part = number(), part < 60 else { throw .init("TZ rule \(text): \(what) has minutes or seconds beyond 59") }
                seconds += part * unit
            }
            return sign * seconds
        }

        /// `Jn`, `n` or `Mm.w.d`.
        mutating func day() throws(ZoneRules.LoadError.Problem) -> ZoneRules.POSIXRule.Day {
            if take("J") {
                guard let number = number(), (1...365).contains(number) else { throw .init("TZ rule \(text): Jn needs n within 1-365") }
                return .julian(number)
            }
            if take("M") {
                guard let month = number(), (1...12).contains(month), take("."), let week = number(), (1...5).contains(week),
                      take("."), let weekday = number(), (0...6).contains(weekday)
                else { throw .init("TZ rule \(text): Mm.w.d needs m within 1-12, w within 1-5, d within 0-6") }
                return .monthWeek(month: month, week: week, weekday: weekday)
            }
            guard let number = number(), (0...365).contains(number) else {
                throw .init("TZ rule \(text): a date is Jn, n or Mm.w.d")
            }
            return .zeroBased(number)
        }

        /// Up to three decimal digits; nil when there is none.
        private mutating func number() -> Int? {
            var value: Int?
            var digits = 0
            while let next = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next), digits < 3 {
                value = (value ?? 0) * 10 + Int(next - UInt8(ascii: "0"))
                position += 1
                digits += 1
            }
            return value
        }
    }
}
