import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory

/// Why a save of the SQLite store failed; what waits stays in memory for the next.
enum StoreSaveError: Error {
    /// SQLite refused the transaction.
    case database(SQLiteError)
    /// The file was found deleted `at`, and no new one could be made.
    case notRecreated(at: Date, HistoryOpenError)
    /// Another file took the file's place, found `at`; it is left alone.
    case replaced(at: Date)
}

extension StoreState {
    /// Writes everything unsaved in one transaction, to the file the path names; a failure
    /// forgets the panel ids it made.
    mutating func commitUnsaved(eventID: UInt64?, expiringAt now: Int64?) throws(StoreSaveError) {
        try followFileAtPath()
        let knownKeys = panelKeys
        do {
            try database.transaction { () throws(SQLiteError) in
                try writeUnsaved(eventID: eventID)
                if let now { try deleteExpired(now: now) }
            }
        } catch {
            panelKeys = knownKeys
            throw .database(error)
        }
    }

    mutating func committed() {
        notifications.markSaved()
    }

    /// The card a failed save shows: out of space, can't save, or the file gone from its place.
    func trouble(after error: StoreSaveError) -> PanelError {
        switch error {
        case .database(let error) where error.isDiskFull:
            history.troubleCard(.outOfSpace, title: "Out of space", notSaved: ": there is no room for it in \(file.folder)",
                                resumesOnce: "there is space", detail: error.description)
        case .database(let error):
            history.troubleCard(.unknown, title: "Can't save history", notSaved: " to \(file.folder)",
                                resumesOnce: "the folder can be written again", detail: error.description)
        case .notRecreated(let lostAt, let reason):
            history.troubleCard(
                .unknown, title: "Can't save history",
                notSaved: ": \(HistoryFile.name) was deleted while serving (at \(Self.clockTime(lostAt))) and a new one "
                    + "cannot be made in \(file.folder)",
                resumesOnce: "it can be", detail: reason.description)
        case .replaced(let lostAt):
            history.troubleCard(
                .unknown, title: "Can't save history",
                notSaved: ": \(HistoryFile.name) was replaced while serving (at \(Self.clockTime(lostAt))) by a file "
                    + "StateDeck leaves alone",
                resumesOnce: "that file is moved away (a new one is made in its place)", detail: file.path)
        }
    }

    private mutating func writeUnsaved(eventID: UInt64?) throws(SQLiteError) {
        let insertChange = try statement("""
            INSERT INTO changes (rowid, panel, at, state, duration_ms, error_kind, title, summary, detail, debug)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (panel, entry, position) in history.unsavedChanges {
            try insertChange.bind(
                .integer(position), .integer(try key(of: panel)), .integer(entry.at.millisecondsSince1970),
                .integer(entry.stateCode),
                entry.durationMs.map(Statement.Value.integer) ?? .null, .optionalText(entry.errorKind?.rawValue),
                .optionalText(entry.title), .optionalText(entry.summary), .optionalText(entry.detail),
                .integer(entry.debug ? 1 : 0)
            ).run()
        }
        let insertTally = try statement("""
            INSERT OR REPLACE INTO tallies (panel, resolution, start, watch, up_ms, down_ms, loading_ms, loads,
                failures, min_ms, max_ms, total_ms, durations) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in history.unsavedRows {
            let tally = row.tally
            try insertTally.bind(
                .integer(try key(of: row.panel)), .integer(Int64(row.resolution.rawValue)), .integer(row.start),
                .integer(row.watch),
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
        for panel in history.unsavedShown {
            let latest = history.latest(of: panel)
            try upsertShown.bind(
                .integer(try key(of: panel)), .optionalText(latest.shown.shown), .optionalText(latest.shown.info),
                .optionalText(latest.shown.error), .integer(latest.shown.stale ? 1 : 0),
                .integer(Int64(latest.health.rawValue)), .integer(latest.since)).run()
        }
        let upsertWatch = try statement("""
            INSERT OR REPLACE INTO watches (id, started, watched_to, tallied_to) VALUES (?, ?, ?, ?)
            """)
        for watch in history.unsavedWatches {
            try upsertWatch.bind(.integer(watch.id), .integer(watch.started), .integer(watch.watchedTo),
                                 .integer(watch.talliedTo)).run()
        }
        try writeNotifications()
        if let eventID, eventID != history.storedEventID {
            try statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_event_id', ?)")
                .bind(.integer(Int64(bitPattern: eventID))).run()
        }
    }

    /// Deletes what retention no longer keeps.
    private mutating func deleteExpired(now: Int64) throws(SQLiteError) {
        let retention = history.retention
        try statement("""
            DELETE FROM changes WHERE rowid < (SELECT coalesce(
                (SELECT rowid FROM changes WHERE at >= ? ORDER BY rowid LIMIT 1),
                (SELECT max(rowid) + 1 FROM changes)))
            """).bind(.integer(retention.changesCutoff(now: now))).run()
        let delete = try statement("DELETE FROM tallies WHERE panel = ? AND resolution = ? AND start < ?")
        for key in panelKeys.values {
            for resolution in Resolution.allCases {
                try delete.bind(.integer(key), .integer(Int64(resolution.rawValue)),
                                .integer(retention.cutoff(of: resolution, now: now))).run()
            }
        }
        try statement("DELETE FROM watches WHERE watched_to < ? AND id != ?")
            .bind(.integer(retention.cutoff(of: .day, now: now)), .integer(history.aggregator.watch)).run()
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
}

extension Statement.Value {
    static func optionalText(_ text: String?) -> Statement.Value {
        text.map(Statement.Value.text) ?? .null
    }
}
