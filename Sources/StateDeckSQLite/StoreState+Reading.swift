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

    /// A page of `panel`'s changes, newest first, saved or waiting to be saved (a full disk may
    /// keep many waiting), ordered by time and then by position: a saved change's row id, or
    /// past every row id for one waiting, in the order they came.
    mutating func changes(of panel: String, _ query: HistoryQuery) throws(SQLiteError) -> HistoryPage {
        let from = query.from?.millisecondsSince1970 ?? .min
        let to = query.to?.millisecondsSince1970 ?? .max
        let cursor = query.cursor ?? HistoryCursor(at: .max, position: .max)
        func before(_ at: Int64, _ position: Int64) -> Bool {
            at < cursor.at || (at == cursor.at && position < cursor.position)
        }
        var found: [(entry: HistoryEntry, position: Int64)] = []
        for (index, waiting) in unsavedChanges.enumerated() where waiting.panel == panel {
            let at = waiting.entry.at.millisecondsSince1970
            let position = Self.firstWaitingPosition + Int64(index)
            if (from...to).contains(at), before(at, position) { found.append((waiting.entry, position)) }
        }
        if let key = panelKeys[panel] {
            let select = try statement("""
                SELECT rowid, at, state, duration_ms, error_kind, title, summary, detail, debug FROM changes
                WHERE panel = ? AND at >= ? AND at <= ? AND (at < ? OR (at = ? AND rowid < ?))
                ORDER BY at DESC, rowid DESC LIMIT ?
                """)
            try select.bind(.integer(key), .integer(from), .integer(to), .integer(cursor.at), .integer(cursor.at),
                            .integer(cursor.position), .integer(Int64(query.limit) + 1))
            defer { select.reset() }
            while try select.step() {
                found.append((HistoryEntry(
                    at: Date(millisecondsSince1970: select.integer(1)),
                    state: Self.state(code: select.integer(2)),
                    durationMs: select.optionalInteger(3),
                    errorKind: select.text(4).flatMap(ErrorKind.init(rawValue:)),
                    title: select.text(5), summary: select.text(6), detail: select.text(7),
                    debug: select.integer(8) != 0), select.integer(0)))
            }
        }
        found.sort { ($0.entry.at, $0.position) > ($1.entry.at, $1.position) }
        let page = found.prefix(query.limit)
        let next = found.count > query.limit ? page.last.map {
            HistoryCursor(at: $0.entry.at.millisecondsSince1970, position: $0.position).description
        } : nil
        return HistoryPage(entries: page.map(\.entry), next: next)
    }

    /// Positions of changes waiting to be saved start past any row id SQLite gives.
    static let firstWaitingPosition: Int64 = 1 << 62

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
