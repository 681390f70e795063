import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory

extension StoreState {
    /// What `panel` showed and its newest entries, or nil for a panel the history never saw
    /// show anything but forced states.
    mutating func memory(of panel: String) throws(SQLiteError) -> PanelMemory? {
        guard let key = panelKeys[panel], history.shown[panel] != nil else { return nil }
        let select = try statement("SELECT at, state FROM changes WHERE panel = ? ORDER BY at DESC, rowid DESC LIMIT ?")
        try select.bind(.integer(key), .integer(Int64(ViewStateHistory.displayLimit)))
        defer { select.reset() }
        var entries: [ViewStateHistory.Entry] = []
        while try select.step() {
            let state = HistoryEntry.state(code: select.integer(1))
            entries.append(ViewStateHistory.Entry(state: state, at: Date(millisecondsSince1970: select.integer(0))))
        }
        return history.memory(of: panel, newestFirst: entries)
    }

    /// A page of `panel`'s changes, saved (positioned by row id) or waiting to be saved.
    mutating func changes(of panel: String, _ query: HistoryQuery) throws(SQLiteError) -> HistoryPage {
        let key = panelKeys[panel]
        return try history.changes(of: panel, query) { range throws(SQLiteError) in
            guard let key else { return [] }
            let select = try statement("""
                SELECT rowid, at, state, duration_ms, error_kind, title, summary, detail, debug FROM changes
                WHERE panel = ? AND at >= ? AND at <= ? AND (at < ? OR (at = ? AND rowid < ?))
                ORDER BY at DESC, rowid DESC LIMIT ?
                """)
            try select.bind(.integer(key), .integer(range.from), .integer(range.to), .integer(range.cursor.at),
                            .integer(range.cursor.at), .integer(range.cursor.position), .integer(Int64(range.limit)))
            defer { select.reset() }
            var found: [(entry: HistoryEntry, position: Int64)] = []
            while try select.step() {
                found.append((HistoryEntry(
                    at: select.integer(1), stateCode: select.integer(2), durationMs: select.optionalInteger(3),
                    errorKind: select.text(4), title: select.text(5), summary: select.text(6), detail: select.text(7),
                    debug: select.integer(8) != 0), select.integer(0)))
            }
            return found
        }
    }

    /// `panel`'s uptime and timeline from its saved tallies and those in memory.
    mutating func uptime(of panel: String, _ query: TimelineQuery, now: Date) throws(SQLiteError) -> UptimeReport {
        let key = panelKeys[panel]
        return try history.uptime(of: panel, query, now: now) { resolution, from throws(SQLiteError) in
            guard let key else { return [] }
            return try storedRows(panel: key, name: panel, resolution, from: from)
        }
    }
}
