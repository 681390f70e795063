import Foundation
import Testing
@testable import StateDeck

/// The one reader of ISO 8601 instants: the forms it takes, and each field held to its range
/// rather than rolled over into the next minute, day or month.
@Suite struct ISO8601TimeTests {
    @Test(arguments: [
        ("2026-11-25T10:42:00Z", "2026-11-25T10:42:00.000Z"),
        ("2026-11-25T10:42:00.250Z", "2026-11-25T10:42:00.250Z"),
        ("2026-11-25T10:42:00.5Z", "2026-11-25T10:42:00.500Z"),
        ("2026-11-25T10:42:00.123456789Z", "2026-11-25T10:42:00.123Z"),
        ("2026-12-01T02:00:00+01:00", "2026-12-01T01:00:00.000Z"),
        ("2026-12-01T02:00:00-0530", "2026-12-01T07:30:00.000Z"),
        ("2026-12-01T02:00:00+18:00", "2026-11-30T08:00:00.000Z"),
        ("2028-02-29T23:59:59Z", "2028-02-29T23:59:59.000Z"),
        ("2000-02-29T00:00:00Z", "2000-02-29T00:00:00.000Z"),
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
    ])
    func anInstantIsReadToTheMillisecond(text: String, written: String) throws {
        #expect(DeckJSON.timestamp(try ISO8601Time.parse(text)) == written)
    }

    @Test(arguments: [
        ("2026-12-06T25:61:61Z", ISO8601Time.Problem.outOfRange(field: "hour", value: 25, range: 0...23)),
        ("2026-12-06T23:61:00Z", .outOfRange(field: "minute", value: 61, range: 0...59)),
        ("2026-12-06T23:59:61Z", .outOfRange(field: "second", value: 61, range: 0...59)),
        ("2026-12-31T23:59:60Z", .outOfRange(field: "second", value: 60, range: 0...59)),
        ("2026-13-01T00:00:00Z", .outOfRange(field: "month", value: 13, range: 1...12)),
        ("2026-00-01T00:00:00Z", .outOfRange(field: "month", value: 0, range: 1...12)),
        ("2026-12-00T00:00:00Z", .outOfRange(field: "day", value: 0, range: 1...31)),
        ("2026-02-30T00:00:00Z", .noSuchDay(day: 30, month: 2, year: 2026)),
        ("2026-02-29T00:00:00Z", .noSuchDay(day: 29, month: 2, year: 2026)),
        ("2100-02-29T00:00:00Z", .noSuchDay(day: 29, month: 2, year: 2100)),
        ("2026-04-31T00:00:00Z", .noSuchDay(day: 31, month: 4, year: 2026)),
        ("2026-12-01T02:00:00+18:01", .offsetOutOfRange("+18:01")),
        ("2026-12-01T02:00:00-19:00", .offsetOutOfRange("-19:00")),
        ("2026-12-01T02:00:00+01:60", .outOfRange(field: "offset minute", value: 60, range: 0...59)),
    ])
    func aFieldOutOfItsRangeIsNamed(text: String, problem: ISO8601Time.Problem) {
        #expect(throws: problem) { try ISO8601Time.parse(text) }
    }

    @Test(arguments: ["yesterday", "", "2026-12-01", "2026-12-01T02:00:00", "2026-12-01 02:00:00Z", "2026-12-01T02:00Z",
                      "2026-12-01T02:00:00.Z", "2026-12-01T02:00:00ZZ", "+2026-12-01T02:00:00Z", "2026-1-01T02:00:00Z",
                      "2026-12-01T02:00:00+1"])
    func anythingElseIsNotATime(text: String) {
        #expect(throws: ISO8601Time.Problem.notATime) { try ISO8601Time.parse(text) }
    }

    @Test func problemsSayWhatIsWrong() {
        #expect(ISO8601Time.Problem.outOfRange(field: "hour", value: 25, range: 0...23).description
            == "hour 25 is out of range (0 to 23)")
        #expect(ISO8601Time.Problem.noSuchDay(day: 30, month: 2, year: 2028).description
            == "February 2028 has no day 30 (it has 29)")
        #expect(ISO8601Time.Problem.offsetOutOfRange("+19:00").description == "offset +19:00 is out of range (-18:00 to +18:00)")
    }
}
