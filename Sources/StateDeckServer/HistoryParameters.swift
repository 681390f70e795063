import FoundationEssentials
import MicroHTTP
import StateDeck
import StateDeckHistory

/// The query parameters of the history, uptime and audit routes; a bad one is a 400 naming it.
enum HistoryParameters {
    struct Invalid: Error {
        let message: String
    }

    /// `from`, `to`, `limit`, `cursor`.
    static func historyQuery(_ query: QueryItems) throws(Invalid) -> HistoryQuery {
        var result = HistoryQuery()
        (result.from, result.to) = try dates(query, "from", "to")
        result.limit = try limit(query, within: HistoryQuery.limits) ?? result.limit
        if let text = query["cursor"] {
            guard let cursor = HistoryCursor(text) else {
                throw Invalid(message: "cursor must be a page's next value, not '\(text)'")
            }
            result.cursor = cursor
        }
        return result
    }

    /// `span`, `slots`, `to`.
    static func timelineQuery(_ query: QueryItems, defaults: TimelineQuery) throws(Invalid) -> TimelineQuery {
        var result = defaults
        if let text = query["span"] {
            guard let span = Duration(parsing: text, maximum: TimelineQuery.longestSpan), span >= .seconds(60) else {
                throw Invalid(message: "span must be a duration from 1m to 732d, such as 90m, 24h or 7d, not '\(text)'")
            }
            result.span = span
        }
        if let text = query["slots"] {
            guard let slots = Int(text), TimelineQuery.slotCounts.contains(slots) else {
                throw Invalid(message: "slots must be a whole number from 1 to \(TimelineQuery.slotCounts.upperBound), not '\(text)'")
            }
            result.slots = slots
        }
        if let to = try date(query, "to") { result.to = to }
        return result
    }

    /// `panel`, `since`, `until`, `limit` of `GET /api/audit`.
    static func auditQuery(_ query: QueryItems) throws(Invalid) -> AuditQuery {
        var result = AuditQuery(panel: query["panel"])
        (result.since, result.until) = try dates(query, "since", "until")
        result.limit = try limit(query, within: AuditQuery.limits) ?? result.limit
        return result
    }

    /// `at` of `GET /api/state?at=`: the instant a moment is rebuilt at.
    static func instant(_ query: QueryItems) throws(Invalid) -> Date {
        guard let at = try date(query, "at") else { throw Invalid(message: "at must be given") }
        return at
    }

    /// The times `start` and `end`, the first not after the second.
    private static func dates(_ query: QueryItems, _ start: String, _ end: String) throws(Invalid) -> (Date?, Date?) {
        let (first, last) = (try date(query, start), try date(query, end))
        if let first, let last, first > last { throw Invalid(message: "\(start) must not be after \(end)") }
        return (first, last)
    }

    /// `limit`, a whole number in `limits`.
    private static func limit(_ query: QueryItems, within limits: ClosedRange<Int>) throws(Invalid) -> Int? {
        guard let text = query["limit"] else { return nil }
        guard let limit = Int(text), limits.contains(limit) else {
            throw Invalid(message: "limit must be a whole number from 1 to \(limits.upperBound), not '\(text)'")
        }
        return limit
    }

    /// The most milliseconds since 1970 a time may be given as: the end of 9999, where ISO 8601's
    /// four-digit years end too. Further on, the stores' millisecond arithmetic overflows (the
    /// server crashed on `to=9223372036854775807`).
    static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// An ISO 8601 time (``ISO8601Time``: `2026-11-25T10:42:00Z`, with or without milliseconds) or
    /// milliseconds since 1970, up to `latestMilliseconds`. A field out of its range is named with
    /// the text: `at=2026-12-06T25:00:00Z` is no time, not the next day's 01:00.
    private static func date(_ query: QueryItems, _ name: String) throws(Invalid) -> Date? {
        guard let text = query[name] else { return nil }
        if let milliseconds = Int64(text), (0...latestMilliseconds).contains(milliseconds) {
            return Date(millisecondsSince1970: milliseconds)
        }
        do throws(ISO8601Time.Problem) {
            return try ISO8601Time.parse(text)
        } catch .notATime {
            throw Invalid(message: "\(name) must be an ISO 8601 time such as 2026-11-25T10:42:00Z, or milliseconds since 1970"
                + " up to \(latestMilliseconds) (the end of 9999), not '\(text)'")
        } catch {
            throw Invalid(message: "\(name) must be a time that exists: \(error) in '\(text)'")
        }
    }
}
