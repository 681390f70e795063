import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory

extension StoreState {
    /// What `panel` showed and its newest entries, or nil for a panel the history never saw
    /// show anything but forced states.
    mutating func memory(of panel: String) throws(SQLiteError) -> PanelMemory? {
        guard let key = panelKeys[panel], let stored = shown[panel] else { return nil }
        let select = try statement("SELECT at, state FROM changes WHERE panel = ? ORDER BY at DESC, rowid DESC LIMIT ?")
        try select.bind(.integer(key), .integer(Int64(ViewStateHistory.displayLimit)))
        defer { select.reset() }
        var entries: [ViewStateHistory.Entry] = []
        while try select.step() {
            let state = Self.state(code: select.integer(1))
            entries.append(ViewStateHistory.Entry(state: state, at: Date(millisecondsSince1970: select.integer(0))))
        }
        return PanelMemory(entries: entries.reversed(), latestInfo: stored.info, latestError: stored.error?.panelError,
                           shown: stored.viewState, stale: stored.stale)
    }

    /// A page of `panel`'s saved changes, newest first.
    mutating func changes(of panel: String, _ query: HistoryQuery) throws(SQLiteError) -> HistoryPage {
        guard let key = panelKeys[panel] else { return HistoryPage(entries: [], next: nil) }
        let select = try statement("""
            SELECT rowid, at, state, duration_ms, error_kind, title, summary, detail, debug FROM changes
            WHERE panel = ? AND at >= ? AND at <= ? AND (at < ? OR (at = ? AND rowid < ?))
            ORDER BY at DESC, rowid DESC LIMIT ?
            """)
        let cursorAt = query.cursor?.at ?? .max
        let cursorRow = query.cursor?.position ?? .max
        try select.bind(
            .integer(key), .integer(query.from.map(\Date.millisecondsSince1970) ?? .min),
            .integer(query.to.map(\Date.millisecondsSince1970) ?? .max), .integer(cursorAt), .integer(cursorAt),
            .integer(cursorRow), .integer(Int64(query.limit) + 1))
        defer { select.reset() }
        var entries: [HistoryEntry] = []
        var next: String?
        var lastRow: Int64 = 0
        while try select.step() {
            guard entries.count < query.limit else {
                next = HistoryCursor(at: entries.last!.at.millisecondsSince1970, position: lastRow).description
                break
            }
            lastRow = select.integer(0)
            entries.append(HistoryEntry(
                at: Date(millisecondsSince1970: select.integer(1)),
                state: Self.state(code: select.integer(2)),
                durationMs: select.optionalInteger(3),
                errorKind: select.text(4).flatMap(ErrorKind.init(rawValue:)),
                title: select.text(5), summary: select.text(6), detail: select.text(7),
                debug: select.integer(8) != 0))
        }
        return HistoryPage(entries: entries, next: next)
    }

    /// `panel`'s uptime and timeline: saved tallies, those waiting to be saved, and the open ones.
    mutating func uptime(of panel: String, _ query: TimelineQuery, now: Date) throws(SQLiteError) -> UptimeReport {
        let key = panelKeys[panel]
        let current = aggregator.tracks[panel].flatMap { track in
            track.health == .unknown ? nil : (track.health, Date(millisecondsSince1970: track.since))
        }
        return try UptimeReport(query: query, current: current, retention: retention) { resolution, from throws(SQLiteError) in
            var rows: [Int64: TallyRow] = [:]
            if let key {
                for row in try storedRows(panel: key, name: panel, resolution, from: from) { rows[row.start] = row }
            }
            for row in unsavedRows.values where row.panel == panel && row.resolution == resolution && row.start >= from {
                rows[row.start] = row
            }
            for row in aggregator.unsavedRows(of: panel, resolution, at: now) where row.start >= from {
                rows[row.start] = row
            }
            return Array(rows.values)
        }
    }

    static func state(code: Int64) -> ViewState.Phase {
        stateCodes.indices.contains(Int(code)) ? stateCodes[Int(code)] : .initial
    }
}
