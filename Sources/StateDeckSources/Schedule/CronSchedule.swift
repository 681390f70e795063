import FoundationEssentials

/// When a cron job is expected: a standard 5-field cron expression (minute, hour, day of month,
/// month, day of week), read in a time zone.
///
/// Fields take `*`, numbers, lists (`1,15`), ranges (`1-5`), steps (`*/15`, `10-50/20`, and
/// `n/step` from `n` to the field's end), month names `JAN`–`DEC` and day names `SUN`–`SAT` in any
/// case; day-of-week takes both 0 and 7 for Sunday. The nicknames `@yearly` (`@annually`),
/// `@monthly`, `@weekly`, `@daily` (`@midnight`) and `@hourly` stand for their usual expressions.
/// As in classic cron, when neither day-of-month nor day-of-week starts with `*`, a day matches
/// when either matches; otherwise both must.
///
/// Daylight saving time: a wall clock time that the clock skips when it is set forward fires at
/// the first instant after the gap (02:30 on the day Europe/Paris moves from 02:00 to 03:00 fires
/// at 03:00 local time); a wall clock time that repeats when the clock is set back fires once, at
/// its first occurrence, so a schedule every 30 minutes is silent during the hour's second pass.
public struct CronSchedule: Sendable, Hashable, CustomStringConvertible {
    /// Why an expression was refused: the field at fault and what is wrong, such as
    /// `minute: 61 is out of range 0-59`.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The field at fault; nil when the expression as a whole is (its count of fields, a nickname).
        public var field: Field?
        /// What is wrong, such as `61 is out of range 0-59`.
        public var problem: String

        /// The field's name and the problem, such as `minute: 61 is out of range 0-59`.
        public var description: String { field.map { "\($0.rawValue): \(problem)" } ?? problem }
    }

    /// The expression as written.
    public let expression: String
    let minutes: CronField
    let hours: CronField
    let daysOfMonth: CronField
    let months: CronField
    let daysOfWeek: CronField

    public var description: String { expression }

    /// The nicknames and the expressions they stand for.
    static let nicknames: KeyValuePairs<String, String> = [
        "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
        "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
    ]

    /// Reads `expression`; throws when it is malformed or names no time that ever comes, such as
    /// February 30.
    public init(parsing expression: String) throws(ParseError) {
        self.expression = expression
        var fields = expression.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if fields.count == 1, fields[0].hasPrefix("@") {
            let nickname = fields[0].lowercased()
            guard let expanded = Self.nicknames.first(where: { $0.key == nickname })?.value else {
                let known = Self.nicknames.map(\.key)
                throw ParseError(field: nil, problem: "unknown nickname \(fields[0]); expected \(known.dropLast().joined(separator: ", ")) or \(known.last!)")
            }
            fields = expanded.split(separator: " ")
        }
        guard fields.count == 5 else {
            throw ParseError(field: nil, problem: "5 fields expected (minute hour day-of-month month day-of-week), found \(fields.count)")
        }
        minutes = try CronField(parsing: fields[0], as: .minute)
        hours = try CronField(parsing: fields[1], as: .hour)
        daysOfMonth = try CronField(parsing: fields[2], as: .dayOfMonth)
        months = try CronField(parsing: fields[3], as: .month)
        daysOfWeek = try CronField(parsing: fields[4], as: .dayOfWeek)
        // Only day-of-month alone can name days that never come: every day of the week comes each
        // month, and a day-of-month starting with * names the 1st.
        if daysOfWeek.isWildcard, !daysOfMonth.isWildcard {
            let longestMonth = (1...12).filter(months.contains).map { CivilDate.daysInMonth($0, of: 2000) }.max() ?? 0
            guard daysOfMonth.first(atOrAfter: 1).map({ $0 <= longestMonth }) ?? false else {
                throw ParseError(field: .dayOfMonth, problem: "\(fields[2]) never comes in month \(fields[3]), so the schedule never fires")
            }
        }
    }

    /// The first time the schedule fires strictly after `instant`, in `zone`; nil only near the
    /// ends of the range of `Date`.
    public func next(after instant: Date, in zone: ZoneRules) -> Date? {
        let seconds = instant.timeIntervalSince1970
        var local = zone.localSeconds(at: ZoneRules.second(of: instant)).flooredDivision(by: 60) * 60
        let horizon = local + Self.searchYears * 366 * 86400
        while let match = firstMatch(atOrAfter: local, before: horizon) {
            let firing = Self.firing(atLocal: match, in: zone)
            if Double(firing) > seconds { return Date(timeIntervalSince1970: Double(firing)) }
            // A wall time the clock showed before `instant` (in a repeated hour): already fired.
            local = match + 60
        }
        return nil
    }

    /// The last time the schedule fired at or before `instant`, in `zone`: when a job was last due;
    /// nil only near the ends of the range of `Date`.
    public func previous(atOrBefore instant: Date, in zone: ZoneRules) -> Date? {
        let seconds = instant.timeIntervalSince1970
        var local = zone.latestLocalSeconds(upTo: ZoneRules.second(of: instant)).flooredDivision(by: 60) * 60
        let horizon = local - Self.searchYears * 366 * 86400
        while let match = lastMatch(atOrBefore: local, after: horizon) {
            let firing = Self.firing(atLocal: match, in: zone)
            if Double(firing) <= seconds { return Date(timeIntervalSince1970: Double(firing)) }
            local = match - 60
        }
        return nil
    }

    /// How far the search goes: the calendar repeats every 400 years, so a schedule that fires at
    /// all fires within them (February 29 on a Sunday comes every 28 years or more).
    private static let searchYears = 400

    /// When a wall time fires: its first occurrence, or the end of the gap that skips it.
    private static func firing(atLocal local: Int, in zone: ZoneRules) -> Int {
        switch zone.instants(atLocal: local) {
        case .unique(let instant), .repeated(first: let instant, second: _), .skipped(transition: let instant): instant
        }
    }

    /// Whether the schedule names the day `date`, in a month it names.
    private func matchesDay(_ date: CivilDate) -> Bool {
        let dayOfMonth = daysOfMonth.contains(date.day)
        let dayOfWeek = daysOfWeek.contains(date.weekday)
        return daysOfMonth.isWildcard || daysOfWeek.isWildcard ? dayOfMonth && dayOfWeek : dayOfMonth || dayOfWeek
    }

    /// The first matching minute at or after `local` (local seconds, a whole minute), jumping
    /// over months, days and hours that do not match; nil when none comes before `horizon`.
    private func firstMatch(atOrAfter local: Int, before horizon: Int) -> Int? {
        var day = local.flooredDivision(by: 86400)
        var minuteOfDay = (local - day * 86400) / 60
        while day * 86400 < horizon {
            var date = CivilDate(daysSinceEpoch: day)
            if !months.contains(date.month) {
                // The first day of the next month the schedule names.
                let month = months.first(atOrAfter: date.month + 1)
                date = CivilDate(year: date.year + (month == nil ? 1 : 0), month: month ?? months.first(atOrAfter: 1)!, day: 1)
                day = date.daysSinceEpoch
                minuteOfDay = 0
                continue
            }
            if matchesDay(date), let hour = hours.first(atOrAfter: minuteOfDay / 60) {
                let fromMinute = hour == minuteOfDay / 60 ? minuteOfDay % 60 : 0
                if let minute = minutes.first(atOrAfter: fromMinute) {
                    return day * 86400 + hour * 3600 + minute * 60
                }
                if let later = hours.first(atOrAfter: hour + 1), let minute = minutes.first(atOrAfter: 0) {
                    return day * 86400 + later * 3600 + minute * 60
                }
            }
            day += 1
            minuteOfDay = 0
        }
        return nil
    }

    /// The last matching minute at or before `local` (local seconds, a whole minute); nil when
    /// none comes after `horizon`.
    private func lastMatch(atOrBefore local: Int, after horizon: Int) -> Int? {
        var day = local.flooredDivision(by: 86400)
        var minuteOfDay = (local - day * 86400) / 60
        while day * 86400 > horizon {
            var date = CivilDate(daysSinceEpoch: day)
            if !months.contains(date.month) {
                // The last day of the previous month the schedule names.
                let month = months.last(atOrBefore: date.month - 1)
                let year = date.year - (month == nil ? 1 : 0)
                let named = month ?? months.last(atOrBefore: 12)!
                date = CivilDate(year: year, month: named, day: CivilDate.daysInMonth(named, of: year))
                day = date.daysSinceEpoch
                minuteOfDay = 24 * 60 - 1
                continue
            }
            if matchesDay(date), let hour = hours.last(atOrBefore: minuteOfDay / 60) {
                let toMinute = hour == minuteOfDay / 60 ? minuteOfDay % 60 : 59
                if let minute = minutes.last(atOrBefore: toMinute) {
                    return day * 86400 + hour * 3600 + minute * 60
                }
                if let earlier = hours.last(atOrBefore: hour - 1), let minute = minutes.last(atOrBefore: 59) {
                    return day * 86400 + earlier * 3600 + minute * 60
                }
            }
            day -= 1
            minuteOfDay = 24 * 60 - 1
        }
        return nil
    }
}
