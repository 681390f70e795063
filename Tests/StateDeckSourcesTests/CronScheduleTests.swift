import Foundation
import Testing
@testable import StateDeckSources

/// Cron expressions read, refused with messages naming the field, and their firings in UTC and
/// across daylight saving time changes.
@Suite("CronSchedule")
struct CronScheduleTests {
    /// The instant an ISO 8601 text with its offset names.
    static func at(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

    /// The first `count` firings after `start`.
    static func firings(_ expression: String, after start: String, count: Int, in zone: ZoneRules = .utc) throws -> [Date] {
        let schedule = try CronSchedule(parsing: expression)
        var firings: [Date] = []
        var instant = try at(start)
        for _ in 0..<count {
            instant = try #require(schedule.next(after: instant, in: zone))
            firings.append(instant)
        }
        return firings
    }

    /// The values each field allows, smallest first.
    static func values(_ expression: String) throws -> [[Int]] {
        let schedule = try CronSchedule(parsing: expression)
        return [schedule.minutes, schedule.hours, schedule.daysOfMonth, schedule.months, schedule.daysOfWeek].map { field in
            (0..<64).filter(field.contains)
        }
    }

    @Test func readsNumbersListsRangesStepsAndNames() throws {
        #expect(try Self.values("1,15 1-5 */10 JAN-mar/2 mon-FRI") == [[1, 15], [1, 2, 3, 4, 5], [1, 11, 21, 31], [1, 3], [1, 2, 3, 4, 5]])
        #expect(try Self.values("10-50/20 0/6 * DEC,feb Sun") == [[10, 30, 50], [0, 6, 12, 18], Array(1...31), [2, 12], [0]])
        #expect(try Self.values("* * * * 7")[4] == [0], "7 is Sunday too")
        #expect(try Self.values("* * * * 5-7")[4] == [0, 5, 6])
        #expect(try Self.values("* * * * MON-SUN")[4] == [0, 1, 2, 3, 4, 5, 6], "Sunday ends a range as 7")
        #expect(try Self.values("* * * * */2")[4] == [0, 2, 4, 6])
        #expect(try Self.values("*/25 */90 * * *")[0...1] == [[0, 25, 50], [0]], "a step beyond the range keeps the start")
        #expect(try Self.values("\t0  12 * *  *  ")[0...1] == [[0], [12]], "fields are separated by any run of blanks")
    }

    @Test func nicknamesStandForTheirExpressions() throws {
        let expansions = [
            "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
            "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *", "@DAILY": "0 0 * * *",
        ]
        for (nickname, expression) in expansions {
            #expect(try Self.values(nickname) == Self.values(expression), "\(nickname)")
        }
        #expect(try CronSchedule(parsing: "@weekly").description == "@weekly", "the expression is kept as written")
    }

    @Test func refusesWithAMessageNamingTheFieldAndTheProblem() {
        let refusals: [(String, CronSchedule.Field?, String)] = [
            ("0 0 * *", nil, "5 fields expected (minute hour day-of-month month day-of-week), found 4"),
            ("", nil, "5 fields expected (minute hour day-of-month month day-of-week), found 0"),
            ("0 0 * * * *", nil, "5 fields expected (minute hour day-of-month month day-of-week), found 6"),
            ("61 * * * *", .minute, "minute: 61 is out of range 0-59"),
            ("0 24 * * *", .hour, "hour: 24 is out of range 0-23"),
            ("0 0 0 * *", .dayOfMonth, "day-of-month: 0 is out of range 1-31"),
            ("0 0 32 * *", .dayOfMonth, "day-of-month: 32 is out of range 1-31"),
            ("0 0 * 13 *", .month, "month: 13 is out of range 1-12"),
            ("0 0 * * 8", .dayOfWeek, "day-of-week: 8 is out of range 0-7"),
            ("x * * * *", .minute, "minute: \"x\" is not a number"),
            ("-5 * * * *", .minute, "minute: a number is missing in the range \"-5\""),
            ("1- * * * *", .minute, "minute: a number is missing in the range \"1-\""),
            ("+5 * * * *", .minute, "minute: \"+5\" is not a number"),
            ("0 0 * FOO *", .month, "month: \"FOO\" is neither a number (1-12) nor a name (JAN-DEC)"),
            ("0 0 * * MONDAY", .dayOfWeek, "day-of-week: \"MONDAY\" is neither a number (0-7) nor a name (SUN-SAT)"),
            ("*/0 * * * *", .minute, "minute: step 0 must be at least 1"),
            ("0 */x * * *", .hour, "hour: step \"x\" is not a number"),
            ("0 1-5/ * * *", .hour, "hour: a step is missing in \"1-5/\""),
            ("1,,2 * * * *", .minute, "minute: empty item in the list \"1,,2\""),
            ("0 22-2 * * *", .hour, "hour: range 22-2 runs backwards; write it as two ranges, such as 22-23,0-2"),
            ("0 0 * DEC-JAN *", .month, "month: range DEC-JAN runs backwards; write it as two ranges, such as 12-12,1-1"),
            ("@reboot", nil, "unknown nickname @reboot; expected @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly"),
            ("0 0 30 2 *", .dayOfMonth, "day-of-month: 30 never comes in month 2, so the schedule never fires"),
            ("0 0 31 APR,6,sep-nov/2 *", .dayOfMonth, "day-of-month: 31 never comes in month APR,6,sep-nov/2, so the schedule never fires"),
        ]
        for (expression, field, message) in refusals {
            do {
                _ = try CronSchedule(parsing: expression)
                Issue.record("\(expression) accepted")
            } catch {
                #expect(error.description == message, "\(expression)")
                #expect(error.field == field, "\(expression)")
            }
        }
    }

    @Test func daysThatComeOnlySometimesAreAccepted() throws {
        #expect(try Self.firings("0 0 30 2 MON", after: "2026-02-01T00:00:00Z", count: 1) == [Self.at("2026-02-02T00:00:00Z")],
                "with a day of the week, the 30th of February is only one way to match")
        #expect(try Self.firings("0 0 31 2,4,5 *", after: "2026-01-01T00:00:00Z", count: 1) == [Self.at("2026-05-31T00:00:00Z")])
    }

    @Test func nextIsStrictlyAfterAndPreviousIsAtOrBefore() throws {
        let schedule = try CronSchedule(parsing: "0 3 * * *")
        #expect(schedule.next(after: try Self.at("2026-06-10T03:00:00Z"), in: .utc) == (try Self.at("2026-06-11T03:00:00Z")))
        #expect(schedule.next(after: try Self.at("2026-06-10T02:59:59.5Z"), in: .utc) == (try Self.at("2026-06-10T03:00:00Z")))
        #expect(schedule.previous(atOrBefore: try Self.at("2026-06-10T03:00:00Z"), in: .utc) == (try Self.at("2026-06-10T03:00:00Z")))
        #expect(schedule.previous(atOrBefore: try Self.at("2026-06-10T02:59:59.999Z"), in: .utc) == (try Self.at("2026-06-09T03:00:00Z")))
        #expect(schedule.previous(atOrBefore: try Self.at("2026-06-10T03:00:00.5Z"), in: .utc) == (try Self.at("2026-06-10T03:00:00Z")))
    }

    @Test func stepsRollOverHoursDaysMonthsAndYears() throws {
        #expect(try Self.firings("*/20 23 * * *", after: "2026-06-10T23:50:00Z", count: 3)
            == [Self.at("2026-06-11T23:00:00Z"), Self.at("2026-06-11T23:20:00Z"), Self.at("2026-06-11T23:40:00Z")])
        #expect(try Self.firings("0 0 31 * *", after: "2026-01-31T00:00:00Z", count: 3)
            == [Self.at("2026-03-31T00:00:00Z"), Self.at("2026-05-31T00:00:00Z"), Self.at("2026-07-31T00:00:00Z")],
            "months without a 31st are skipped")
        #expect(try Self.firings("59 23 31 12 *", after: "2026-12-31T23:59:00Z", count: 1) == [Self.at("2027-12-31T23:59:00Z")])
        #expect(try Self.firings("@yearly", after: "2026-12-31T23:59:59Z", count: 2) == [Self.at("2027-01-01T00:00:00Z"), Self.at("2028-01-01T00:00:00Z")])
        #expect(try Self.firings("@monthly", after: "2026-01-15T00:00:00Z", count: 2) == [Self.at("2026-02-01T00:00:00Z"), Self.at("2026-03-01T00:00:00Z")])
        #expect(try Self.firings("@weekly", after: "2026-06-10T00:00:00Z", count: 1) == [Self.at("2026-06-14T00:00:00Z")], "Sunday")
        #expect(try Self.firings("@hourly", after: "2026-06-10T23:00:00Z", count: 1) == [Self.at("2026-06-11T00:00:00Z")])
        #expect(try Self.firings("@daily", after: "2026-02-28T00:00:00Z", count: 2) == [Self.at("2026-03-01T00:00:00Z"), Self.at("2026-03-02T00:00:00Z")])
    }

    @Test func februaryTheTwentyNinthComesInLeapYearsOnly() throws {
        #expect(try Self.firings("0 12 29 2 *", after: "2026-01-01T00:00:00Z", count: 2)
            == [Self.at("2028-02-29T12:00:00Z"), Self.at("2032-02-29T12:00:00Z")])
        #expect(try Self.firings("0 12 29 2 *", after: "2097-01-01T00:00:00Z", count: 1) == [Self.at("2104-02-29T12:00:00Z")],
                "2100 is not a leap year")
        let schedule = try CronSchedule(parsing: "0 12 29 2 *")
        #expect(schedule.previous(atOrBefore: try Self.at("2027-06-01T00:00:00Z"), in: .utc) == (try Self.at("2024-02-29T12:00:00Z")))
        #expect(schedule.previous(atOrBefore: try Self.at("2103-06-01T00:00:00Z"), in: .utc) == (try Self.at("2096-02-29T12:00:00Z")))
        #expect(try Self.firings("0 0 29 2 */7", after: "2026-01-01T00:00:00Z", count: 3)
            == [Self.at("2032-02-29T00:00:00Z"), Self.at("2060-02-29T00:00:00Z"), Self.at("2088-02-29T00:00:00Z")],
            "February 29 on a Sunday: every 28 years at best")
        #expect(try Self.firings("0 0 * 2 *", after: "2028-02-28T12:00:00Z", count: 2) == [Self.at("2028-02-29T00:00:00Z"), Self.at("2029-02-01T00:00:00Z")])
    }

    @Test func dayOfMonthOrDayOfWeekWhenBothAreRestricted() throws {
        // February 2026 starts on a Sunday: its Fridays are the 6th, 13th, 20th and 27th.
        #expect(try Self.firings("0 9 15 * FRI", after: "2026-02-01T00:00:00Z", count: 6) == [
            Self.at("2026-02-06T09:00:00Z"), Self.at("2026-02-13T09:00:00Z"), Self.at("2026-02-15T09:00:00Z"),
            Self.at("2026-02-20T09:00:00Z"), Self.at("2026-02-27T09:00:00Z"), Self.at("2026-03-06T09:00:00Z"),
        ])
        #expect(try Self.firings("0 9 */2 * FRI", after: "2026-02-01T00:00:00Z", count: 3)
            == [Self.at("2026-02-13T09:00:00Z"), Self.at("2026-02-27T09:00:00Z"), Self.at("2026-03-13T09:00:00Z")],
            "a day-of-month starting with * restricts together with the day of the week: odd Fridays")
        #expect(try Self.firings("0 9 * * FRI", after: "2026-02-01T00:00:00Z", count: 2) == [Self.at("2026-02-06T09:00:00Z"), Self.at("2026-02-13T09:00:00Z")])
        let schedule = try CronSchedule(parsing: "0 9 15 * FRI")
        #expect(schedule.previous(atOrBefore: try Self.at("2026-02-20T08:59:00Z"), in: .utc) == (try Self.at("2026-02-15T09:00:00Z")))
        #expect(schedule.previous(atOrBefore: try Self.at("2026-02-15T08:59:00Z"), in: .utc) == (try Self.at("2026-02-13T09:00:00Z")))
    }

    @Test func previousWalksBackOverMonthsAndYears() throws {
        let schedule = try CronSchedule(parsing: "30 6 31 JAN,MAR *")
        #expect(schedule.previous(atOrBefore: try Self.at("2026-03-30T00:00:00Z"), in: .utc) == (try Self.at("2026-01-31T06:30:00Z")))
        #expect(schedule.previous(atOrBefore: try Self.at("2026-01-31T06:29:00Z"), in: .utc) == (try Self.at("2025-03-31T06:30:00Z")))
        let everyQuarterHour = try CronSchedule(parsing: "*/15 8-9 * * *")
        #expect(everyQuarterHour.previous(atOrBefore: try Self.at("2026-06-10T08:00:00Z"), in: .utc) == (try Self.at("2026-06-10T08:00:00Z")))
        #expect(everyQuarterHour.previous(atOrBefore: try Self.at("2026-06-10T07:59:00Z"), in: .utc) == (try Self.at("2026-06-09T09:45:00Z")))
        #expect(everyQuarterHour.previous(atOrBefore: try Self.at("2026-06-10T09:14:00Z"), in: .utc) == (try Self.at("2026-06-10T09:00:00Z")))
    }
}

/// Firings in named zones, across the days their clocks change.
extension CronScheduleTests {
    @Test func parisSpringForwardFiresASkippedTimeAtTheEndOfTheGap() throws {
        let paris = try ZoneRules.named("Europe/Paris")
        // 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00 UTC.
        #expect(try Self.firings("30 2 * * *", after: "2026-03-28T12:00:00Z", count: 2, in: paris)
            == [Self.at("2026-03-29T03:00:00+02:00"), Self.at("2026-03-30T02:30:00+02:00")])
        #expect(try Self.firings("*/30 * * * *", after: "2026-03-29T01:15:00+01:00", count: 3, in: paris)
            == [Self.at("2026-03-29T01:30:00+01:00"), Self.at("2026-03-29T03:00:00+02:00"), Self.at("2026-03-29T03:30:00+02:00")],
            "02:00 and 02:30 both fire at 03:00, once")
        let schedule = try CronSchedule(parsing: "30 2 * * *")
        #expect(schedule.previous(atOrBefore: try Self.at("2026-03-29T01:00:00Z"), in: paris) == (try Self.at("2026-03-29T01:00:00Z")))
        #expect(schedule.previous(atOrBefore: try Self.at("2026-03-29T00:59:59Z"), in: paris) == (try Self.at("2026-03-28T02:30:00+01:00")))
    }

    @Test func parisFallBackFiresARepeatedTimeOnceAtItsFirstOccurrence() throws {
        let paris = try ZoneRules.named("Europe/Paris")
        // 2026-10-25: 03:00 CEST becomes 02:00 CET at 01:00 UTC; 02:00-02:59 comes twice.
        #expect(try Self.firings("30 2 * * *", after: "2026-10-24T12:00:00Z", count: 2, in: paris)
            == [Self.at("2026-10-25T02:30:00+02:00"), Self.at("2026-10-26T02:30:00+01:00")])
        #expect(try Self.firings("*/30 * * * *", after: "2026-10-25T01:45:00+02:00", count: 4, in: paris) == [
            Self.at("2026-10-25T02:00:00+02:00"), Self.at("2026-10-25T02:30:00+02:00"),
            Self.at("2026-10-25T03:00:00+01:00"), Self.at("2026-10-25T03:30:00+01:00"),
        ], "the second 02:00 and 02:30 do not fire")
        let schedule = try CronSchedule(parsing: "30 2 * * *")
        #expect(schedule.next(after: try Self.at("2026-10-25T02:15:00+01:00"), in: paris) == (try Self.at("2026-10-26T02:30:00+01:00")),
                "from inside the second 02:00-02:59")
        #expect(schedule.previous(atOrBefore: try Self.at("2026-10-25T02:45:00+01:00"), in: paris) == (try Self.at("2026-10-25T02:30:00+02:00")))
        #expect(schedule.previous(atOrBefore: try Self.at("2026-10-25T02:15:00+02:00"), in: paris) == (try Self.at("2026-10-24T02:30:00+02:00")))
        let everyMinute = try CronSchedule(parsing: "* * * * *")
        #expect(everyMinute.previous(atOrBefore: try Self.at("2026-10-25T02:10:30+01:00"), in: paris) == (try Self.at("2026-10-25T02:59:00+02:00")),
                "the last minute due is the last of the first 02:00-02:59")
        #expect(everyMinute.next(after: try Self.at("2026-10-25T02:10:30+01:00"), in: paris) == (try Self.at("2026-10-25T03:00:00+01:00")))
    }

    @Test func newYorkSkippedAndRepeatedHours() throws {
        let newYork = try ZoneRules.named("America/New_York")
        // 2026-03-08: 02:00 EST becomes 03:00 EDT; 2026-11-01: 02:00 EDT becomes 01:00 EST.
        #expect(try Self.firings("30 2 * * *", after: "2026-03-07T12:00:00Z", count: 3, in: newYork)
            == [Self.at("2026-03-08T03:00:00-04:00"), Self.at("2026-03-09T02:30:00-04:00"), Self.at("2026-03-10T02:30:00-04:00")])
        #expect(try Self.firings("30 1 * * *", after: "2026-10-31T12:00:00Z", count: 2, in: newYork)
            == [Self.at("2026-11-01T01:30:00-04:00"), Self.at("2026-11-02T01:30:00-05:00")])
        let schedule = try CronSchedule(parsing: "30 1 * * *")
        #expect(schedule.previous(atOrBefore: try Self.at("2026-11-01T01:40:00-05:00"), in: newYork) == (try Self.at("2026-11-01T01:30:00-04:00")))
    }

    @Test func halfHourOffsetsAndHalfHourDaylightSaving() throws {
        let kolkata = try ZoneRules.named("Asia/Kolkata")
        #expect(try Self.firings("0 9 * * MON-FRI", after: "2026-06-05T12:00:00Z", count: 2, in: kolkata)
            == [Self.at("2026-06-08T09:00:00+05:30"), Self.at("2026-06-09T09:00:00+05:30")])
        let lordHowe = try ZoneRules.named("Australia/Lord_Howe")
        // 2026-10-04: 02:00 (+10:30) becomes 02:30 (+11); 2026-04-05: 02:00 (+11) becomes 01:30 (+10:30).
        #expect(try Self.firings("15 2 * * *", after: "2026-10-03T00:00:00Z", count: 2, in: lordHowe)
            == [Self.at("2026-10-04T02:30:00+11:00"), Self.at("2026-10-05T02:15:00+11:00")])
        #expect(try Self.firings("45 1 * * *", after: "2026-04-04T00:00:00Z", count: 2, in: lordHowe)
            == [Self.at("2026-04-05T01:45:00+11:00"), Self.at("2026-04-06T01:45:00+10:30")])
    }

    @Test func farPastTheLastTransitionTheFootersRuleDecides() throws {
        let paris = try ZoneRules.named("Europe/Paris")
        let schedule = try CronSchedule(parsing: "30 2 * * *")
        // 2100-03-28 and 2100-10-31 are the last Sundays of March and October.
        #expect(schedule.previous(atOrBefore: try Self.at("2100-03-28T03:00:00+02:00"), in: paris) == (try Self.at("2100-03-28T01:00:00Z")))
        #expect(try Self.firings("30 2 * * *", after: "2100-03-27T12:00:00Z", count: 2, in: paris)
            == [Self.at("2100-03-28T03:00:00+02:00"), Self.at("2100-03-29T02:30:00+02:00")])
        #expect(schedule.previous(atOrBefore: try Self.at("2100-10-31T02:45:00+01:00"), in: paris) == (try Self.at("2100-10-31T02:30:00+02:00")))
        #expect(try Self.firings("30 2 * * *", after: "2100-10-30T12:00:00Z", count: 2, in: paris)
            == [Self.at("2100-10-31T02:30:00+02:00"), Self.at("2100-11-01T02:30:00+01:00")])
    }

    @Test func tenThousandNextsTakeLittleTime() throws {
        let paris = try ZoneRules.named("Europe/Paris")
        let schedules = try ["0 3 * * *", "*/5 * * * *", "0 0 29 2 *", "0 9 13 * FRI", "30 2 * 3,10 SUN"].map(CronSchedule.init(parsing:))
        var instant = try Self.at("2026-01-01T00:00:00Z")
        let started = ContinuousClock.now
        for index in 0..<10_000 {
            instant = try #require(schedules[index % schedules.count].next(after: instant, in: paris))
            if index % 100 == 0 { instant = try Self.at("2026-01-01T00:00:00Z") }
        }
        #expect(started.duration(to: .now) < .seconds(5), "fields are jumped over, not minutes counted")
    }
}

/// Random expressions against a scan of every minute of a window, in UTC: the field jumps find
/// what counting minutes finds.
extension CronScheduleTests {
    /// A generated field: its text and the values it names.
    struct GeneratedField {
        var text: String
        var values: Set<Int>
        var isWildcard: Bool
    }

    /// A fixed pseudo-random sequence, so a failure repeats.
    struct Sequence {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
    }

    /// A field over `range`: `*`, `*/k` (over `whole`), `a`, `a-b`, `a-b/k` or `a,b,c`, numbers
    /// written as `spell` writes them (names now and then).
    static func generatedField(
        _ range: ClosedRange<Int>, whole: ClosedRange<Int>? = nil, _ random: inout Sequence, spell: (Int, inout Sequence) -> String
    ) -> GeneratedField {
        let whole = whole ?? range
        let low = random.next(range)
        let high = random.next(low...range.upperBound)
        let step = random.next(2...max(2, range.count / 2))
        switch random.next(0...5) {
        case 0: return GeneratedField(text: "*", values: Set(whole), isWildcard: true)
        case 1: return GeneratedField(text: "*/\(step)", values: Set(stride(from: whole.lowerBound, through: whole.upperBound, by: step)), isWildcard: true)
        case 2: return GeneratedField(text: spell(low, &random), values: [low], isWildcard: false)
        case 3: return GeneratedField(text: "\(spell(low, &random))-\(spell(high, &random))", values: Set(low...high), isWildcard: false)
        case 4:
            return GeneratedField(text: "\(spell(low, &random))-\(spell(high, &random))/\(step)",
                                  values: Set(stride(from: low, through: high, by: step)), isWildcard: false)
        default:
            let values = (0..<3).map { _ in random.next(range) }
            return GeneratedField(text: values.map { spell($0, &random) }.joined(separator: ","), values: Set(values), isWildcard: false)
        }
    }

    @Test func agreesWithAMinuteByMinuteScan() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        let days = ["sun", "Mon", "TUE", "wed", "Thu", "FRI", "sat"]
        let number = { (value: Int, _: inout Sequence) in "\(value)" }
        var random = Sequence(state: 0xC0FFEE)
        let firstDay = try Self.at("2026-01-01T00:00:00Z").timeIntervalSince1970
        var firingsFound = 0
        for _ in 0..<200 {
            let minute = Self.generatedField(0...59, &random, spell: number)
            let hour = Self.generatedField(0...23, &random, spell: number)
            // Up to the 28th, so that every month has the days named.
            let dayOfMonth = Self.generatedField(1...28, whole: 1...31, &random, spell: number)
            let month = Self.generatedField(1...12, &random) { value, random in random.next(0...1) == 0 ? "\(value)" : months[value - 1] }
            let dayOfWeek = Self.generatedField(0...6, &random) { value, random in random.next(0...1) == 0 ? "\(value)" : days[value] }
            let expression = [minute, hour, dayOfMonth, month, dayOfWeek].map(\.text).joined(separator: " ")
            let schedule = try CronSchedule(parsing: expression)
            // Every firing in a window of 75 days, found day by day and minute by minute.
            let windowStart = firstDay + Double(random.next(0...1500)) * 86400
            let windowEnd = windowStart + 75 * 86400
            var firings: [Double] = []
            for dayStart in stride(from: windowStart, to: windowEnd, by: 86400) {
                let date = calendar.dateComponents([.day, .month, .weekday], from: Date(timeIntervalSince1970: dayStart))
                guard month.values.contains(date.month!) else { continue }
                let byDate = dayOfMonth.values.contains(date.day!)
                let byWeekday = dayOfWeek.values.contains(date.weekday! - 1)
                guard dayOfMonth.isWildcard || dayOfWeek.isWildcard ? byDate && byWeekday : byDate || byWeekday else { continue }
                for minuteOfDay in 0..<1440 where hour.values.contains(minuteOfDay / 60) && minute.values.contains(minuteOfDay % 60) {
                    firings.append(dayStart + Double(minuteOfDay * 60))
                }
            }
            for _ in 0..<25 {
                let probe = windowStart + Double(random.next(0...75 * 86400 - 1)) + (random.next(0...1) == 0 ? 0 : 0.5)
                let probeDate = Date(timeIntervalSince1970: probe)
                let next = schedule.next(after: probeDate, in: .utc)?.timeIntervalSince1970
                if let expected = firings.first(where: { $0 > probe }) {
                    firingsFound += 1
                    #expect(next == expected, "\(expression) after \(probeDate)")
                } else {
                    #expect((next ?? .infinity) >= windowEnd, "\(expression) after \(probeDate)")
                }
                let previous = schedule.previous(atOrBefore: probeDate, in: .utc)?.timeIntervalSince1970
                if let expected = firings.last(where: { $0 <= probe }) {
                    #expect(previous == expected, "\(expression) at or before \(probeDate)")
                } else {
                    #expect((previous ?? -.infinity) < windowStart, "\(expression) at or before \(probeDate)")
                }
            }
        }
        #expect(firingsFound > 1500, "a fair share of the probes have a firing after them in their window")
    }
}

/// Around clock changes, the firings found from the instants' side: each minute whose reading
/// matches and was never shown before, and each forward jump over a matching reading.
extension CronScheduleTests {
    /// Whether `schedule` names the wall clock minute `local` (local seconds), its day read through
    /// Foundation's calendar (once a day: `days` keeps what was read).
    static func names(_ schedule: CronSchedule, local: Int, calendar: Calendar, days: inout [Int: DateComponents]) -> Bool {
        let day = local.flooredDivision(by: 86400)
        let date = days[day] ?? calendar.dateComponents([.day, .month, .weekday], from: Date(timeIntervalSince1970: Double(day * 86400)))
        days[day] = date
        let byDate = schedule.daysOfMonth.contains(date.day!)
        let byWeekday = schedule.daysOfWeek.contains(date.weekday! - 1)
        let dayNamed = schedule.daysOfMonth.isWildcard || schedule.daysOfWeek.isWildcard ? byDate && byWeekday : byDate || byWeekday
        let minuteOfDay = (local - day * 86400) / 60
        return dayNamed && schedule.months.contains(date.month!) && schedule.hours.contains(minuteOfDay / 60)
            && schedule.minutes.contains(minuteOfDay % 60)
    }

    @Test func aroundClockChangesAgreesWithAScanOfInstants() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let expressions = ["*/30 * * * *", "30 2 * * *", "15 1-3 * * *", "0 * * * *", "45 1 * * *", "*/7 0-4 * * SUN", "59 1 * * *"]
        let schedules = try expressions.map(CronSchedule.init(parsing:))
        var random = Sequence(state: 0xD57)
        var datesRead: [Int: DateComponents] = [:]
        var firingsFound = 0
        for (zoneName, days) in [
            ("Europe/Paris", ["2026-03-29", "2026-10-25", "2100-03-28", "2100-10-31"]),
            ("America/New_York", ["2026-03-08", "2026-11-01"]),
            ("Australia/Lord_Howe", ["2026-04-05", "2026-10-04"]),
        ] {
            let zone = try ZoneRules.named(zoneName)
            for day in days {
                // A week either side, so that a weekly schedule fires before and after every probe.
                let dayStart = Int(try Self.at("\(day)T00:00:00Z").timeIntervalSince1970)
                let (start, end) = (dayStart - 8 * 86400, dayStart + 8 * 86400)
                for (expression, schedule) in zip(expressions, schedules) {
                    var firings: [Int] = []
                    var latestShown = Int.min
                    var previousReading = zone.localSeconds(at: start - 60)
                    for instant in stride(from: start, to: end, by: 60) {
                        let reading = zone.localSeconds(at: instant)
                        let skipped = stride(from: previousReading + 60, to: reading, by: 60)
                        if reading > latestShown && Self.names(schedule, local: reading, calendar: calendar, days: &datesRead)
                            || skipped.contains(where: { Self.names(schedule, local: $0, calendar: calendar, days: &datesRead) }) {
                            firings.append(instant)
                        }
                        latestShown = max(latestShown, reading + 59)
                        previousReading = reading
                    }
                    for _ in 0..<40 {
                        let probe = dayStart + random.next(-86400...2 * 86400)
                        let probeDate = Date(timeIntervalSince1970: Double(probe))
                        let next = try #require(firings.first { $0 > probe })
                        let previous = try #require(firings.last { $0 <= probe })
                        firingsFound += 1
                        #expect(schedule.next(after: probeDate, in: zone) == Date(timeIntervalSince1970: Double(next)), "\(expression) in \(zoneName) after \(probeDate)")
                        #expect(schedule.previous(atOrBefore: probeDate, in: zone) == Date(timeIntervalSince1970: Double(previous)),
                                "\(expression) in \(zoneName) at or before \(probeDate)")
                    }
                }
            }
        }
        #expect(firingsFound == 8 * 7 * 40)
    }
}
