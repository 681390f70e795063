import FoundationEssentials
import Postgres
import StateDeck
import StateDeckHistory

extension PostgresStoreState {
    /// The session to read with, or the reason there is none.
    var readingSession: PostgresConnection {
        get throws(PostgresError) {
            guard let session else {
                throw PostgresError(kind: .connection, message: "PostgreSQL at \(server) cannot be reached: \(connectionFailure)")
            }
            return session
        }
    }

    /// What `panel` showed and its newest entries, or nil for a panel the history never saw
    /// show anything but forced states.
    func memory(of panel: String) throws(PostgresError) -> PanelMemory? {
        guard let key = panelKeys[panel], history.shown[panel] != nil else { return nil }
        let rows = try readingSession.query(
            "SELECT at, state FROM statedeck.changes WHERE panel = $1 ORDER BY at DESC, id DESC LIMIT $2",
            [String(key), String(ViewStateHistory.displayLimit)])
        let entries = (0..<rows.count).map { row in
            ViewStateHistory.Entry(state: HistoryEntry.state(code: rows.integer(row, 1) ?? 0),
                                   at: Date(millisecondsSince1970: rows.integer(row, 0) ?? 0))
        }
        return history.memory(of: panel, newestFirst: entries)
    }

    /// `panel`'s id in `statedeck.panels`, read when not known yet: the process running the
    /// deck may have added the panel since this one read them.
    mutating func storedKey(of panel: String) throws(PostgresError) -> Int64? {
        if let key = panelKeys[panel] { return key }
        let key = try readingSession.query("SELECT id FROM statedeck.panels WHERE name = $1", [panel]).integer(0, 0)
        if let key { panelKeys[panel] = key }
        return key
    }

    /// A page of `panel`'s changes, saved (positioned by id) or waiting to be saved.
    mutating func changes(of panel: String, _ query: HistoryQuery) throws(PostgresError) -> HistoryPage {
        let key = try storedKey(of: panel)
        return try history.changes(of: panel, query) { range throws(PostgresError) in
            guard let key else { return [] }
            let rows = try readingSession.query("""
                SELECT id, at, state, duration_ms, error_kind, title, summary, detail, debug FROM statedeck.changes
                WHERE panel = $1 AND at >= $2 AND at <= $3 AND (at < $4 OR (at = $4 AND id < $5))
                ORDER BY at DESC, id DESC LIMIT $6
                """, [String(key), String(range.from), String(range.to), String(range.cursor.at),
                      String(range.cursor.position), String(range.limit)])
            return (0..<rows.count).map { row in
                (HistoryEntry(at: rows.integer(row, 1) ?? 0, stateCode: rows.integer(row, 2) ?? 0,
                              durationMs: rows.integer(row, 3), errorKind: rows[row, 4], title: rows[row, 5],
                              summary: rows[row, 6], detail: rows[row, 7], debug: rows.boolean(row, 8) ?? false),
                 rows.integer(row, 0) ?? 0)
            }
        }
    }

    /// `panel`'s uptime and timeline from its saved tallies and those in memory.
    mutating func uptime(of panel: String, _ query: TimelineQuery, now: Date) throws(PostgresError) -> UptimeReport {
        let key = try storedKey(of: panel)
        return try history.uptime(of: panel, query, now: now) { resolution, from throws(PostgresError) in
            guard let key else { return [] }
            return try Self.storedRows(readingSession, panel: key, name: panel, resolution, from: from)
        }
    }
}
