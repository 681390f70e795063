/// A day of the proleptic Gregorian calendar, and its count of days from 1970-01-01: the
/// arithmetic the cron schedule and the time zone rules do without a calendar library.
struct CivilDate: Sendable, Hashable {
    var year: Int
    /// 1–12.
    var month: Int
    /// 1–31.
    var day: Int

    /// The date `days` days after 1970-01-01 (before it when negative).
    init(daysSinceEpoch days: Int) {
        // Howard Hinnant's civil_from_days: eras of 400 years, years starting in March.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days from 1970-01-01 to this date.
    var daysSinceEpoch: Int {
        let year = month <= 2 ? self.year - 1 : self.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 0 for Sunday through 6 for Saturday.
    var weekday: Int { Self.weekday(daysSinceEpoch: daysSinceEpoch) }

    /// 0 for Sunday through 6 for Saturday (1970-01-01 was a Thursday).
    static func weekday(daysSinceEpoch days: Int) -> Int { ((days + 4) % 7 + 7) % 7 }

    static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int {
    /// The quotient rounded toward minus infinity, for times before 1970.
    func flooredDivision(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
