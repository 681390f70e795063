import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory

extension StoreState {
    /// Takes `changes` into the tallies and what waits to be saved, and counts time up to `now`:
    /// in memory only, so a query may do it too and answer with the newest changes.
    mutating func absorb(_ changes: [PanelChange], now: Date, unsavedLimit: Int) {
        for change in changes {
            aggregator.apply(change)
            if change.recorded { unsavedChanges.append((change.panel, HistoryEntry(change))) }
            if change.cause != .debug, change.recorded {
                shown[change.panel, default: ShownState()].apply(change)
                unsavedShown.insert(change.panel)
            }
        }
        aggregator.advance(to: now)
        for row in aggregator.takeClosedRows() {
            unsavedRows[RowKey(panel: row.panel, resolution: row.resolution, start: row.start)] = row
        }
        keepWithinLimit(unsavedLimit)
    }

    /// Saves everything unsaved in one transaction, with retention once an hour. A failed save
    /// keeps it all for the next, and says why in `trouble`.
    mutating func save(eventID: UInt64?, now: Date, folder: String) {
        let milliseconds = now.millisecondsSince1970
        let knownKeys = panelKeys
        do {
            try database.transaction { () throws(SQLiteError) in
                try writeUnsaved(eventID: eventID)
                let hour = Resolution.hour.start(of: milliseconds)
                if hour != retainedHour {
                    try deleteExpired(now: milliseconds)
                    retainedHour = hour
                }
            }
            unsavedChanges = []
            unsavedRows = [:]
            unsavedShown = []
            notifications.markSaved()
            if let eventID { storedEventID = eventID }
            dropped = 0
            trouble = nil
        } catch {
            panelKeys = knownKeys
            trouble = Self.trouble(error, folder: folder, waiting: unsavedChanges.count, dropped: dropped)
        }
    }

    /// Drops the oldest unsaved changes and tallies past `limit`, counting the changes.
    private mutating func keepWithinLimit(_ limit: Int) {
        if unsavedChanges.count > limit {
            dropped += unsavedChanges.count - limit
            unsavedChanges.removeFirst(unsavedChanges.count - limit)
        }
        if unsavedRows.count > limit {
            for key in unsavedRows.keys.sorted(by: { $0.start < $1.start }).prefix(unsavedRows.count - limit) {
                unsavedRows[key] = nil
            }
        }
    }

    private mutating func writeUnsaved(eventID: UInt64?) throws(SQLiteError) {
        let insertChange = try statement("""
            INSERT INTO changes (panel, at, state, duration_ms, error_kind, title, summary, detail, debug)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (panel, entry) in unsavedChanges {
            try insertChange.bind(
                .integer(try key(of: panel)), .integer(entry.at.millisecondsSince1970),
                .integer(Int64(Self.stateCodes.firstIndex(of: entry.state)!)),
                entry.durationMs.map(Statement.Value.integer) ?? .null, .optionalText(entry.errorKind?.rawValue),
                .optionalText(entry.title), .optionalText(entry.summary), .optionalText(entry.detail),
                .integer(entry.debug ? 1 : 0)
            ).run()
        }
        let insertTally = try statement("""
            INSERT OR REPLACE INTO tallies (panel, resolution, start, up_ms, down_ms, loading_ms, loads,
                failures, min_ms, max_ms, total_ms, durations) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in unsavedRows.values {
            let tally = row.tally
            try insertTally.bind(
                .integer(try key(of: row.panel)), .integer(Int64(row.resolution.rawValue)), .integer(row.start),
                .integer(tally.upMs), .integer(tally.downMs), .integer(tally.loadingMs), .integer(Int64(tally.loads)),
                .integer(Int64(tally.failures)), tally.minMs.map(Statement.Value.integer) ?? .null,
                tally.maxMs.map(Statement.Value.integer) ?? .null, .integer(tally.totalMs),
                .blob(tally.durations.encoded)
            ).run()
        }
        let upsertShown = try statement("""
            INSERT OR REPLACE INTO latest (panel, shown, info, error, stale, health, since) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        // Health changes only with a recorded change, so the panels changed are all there is to write.
        for panel in unsavedShown {
            let track = aggregator.tracks[panel]
            try upsertShown.bind([.integer(try key(of: panel))] + (shown[panel] ?? ShownState()).columns
                + [.integer(Int64(track?.health.rawValue ?? 0)), .integer(track?.since ?? 0)]).run()
        }
        try writeNotifications()
        if let eventID, eventID != storedEventID {
            try statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_event_id', ?)")
                .bind(.integer(Int64(bitPattern: eventID))).run()
        }
    }

    /// Deletes what retention no longer keeps.
    private mutating func deleteExpired(now: Int64) throws(SQLiteError) {
        let changesCutoff = now - Int64(retention.changes / .milliseconds(1))
        try statement("""
            DELETE FROM changes WHERE rowid < (SELECT coalesce(
                (SELECT rowid FROM changes WHERE at >= ? ORDER BY rowid LIMIT 1),
                (SELECT max(rowid) + 1 FROM changes)))
            """).bind(.integer(changesCutoff)).run()
        let delete = try statement("DELETE FROM tallies WHERE panel = ? AND resolution = ? AND start < ?")
        for key in panelKeys.values {
            for resolution in Resolution.allCases {
                let cutoff = now - Int64(retention.duration(of: resolution) / .milliseconds(1))
                try delete.bind(.integer(key), .integer(Int64(resolution.rawValue)), .integer(cutoff)).run()
            }
        }
    }

    /// The row id of `panel` in `panels`, added on first use.
    mutating func key(of panel: String) throws(SQLiteError) -> Int64 {
        if let key = panelKeys[panel] { return key }
        try statement("INSERT OR IGNORE INTO panels (name) VALUES (?)").bind(.text(panel)).run()
        let select = try statement("SELECT id FROM panels WHERE name = ?")
        try select.bind(.text(panel))
        defer { select.reset() }
        guard try select.step() else { throw SQLiteError(code: 1, message: "panel \(panel) was not saved") }
        let key = select.integer(0)
        panelKeys[panel] = key
        return key
    }

    /// The `state` column's codes.
    static let stateCodes: [ViewState.Phase] = [.initial, .loading, .loaded, .error]

    /// The card a failed save shows: out of space, or can't save.
    static func trouble(_ error: SQLiteError, folder: String, waiting: Int, dropped: Int) -> PanelError {
        let kept = dropped > 0
            ? "\(waiting) changes wait in memory and the \(dropped) oldest were dropped"
            : "\(waiting) changes wait in memory"
        if error.isDiskFull {
            return PanelError(
                .outOfSpace, title: "Out of space",
                message: "History is not being saved: there is no room for it in \(folder). \(kept); "
                    + "saving resumes by itself once there is space.",
                detail: error.description)
        }
        return PanelError(
            .unknown, title: "Can't save history",
            message: "History is not being saved to \(folder). \(kept); saving resumes by itself once the "
                + "folder can be written again.",
            detail: error.description)
    }
}

extension Statement.Value {
    static func optionalText(_ text: String?) -> Statement.Value {
        text.map(Statement.Value.text) ?? .null
    }
}
