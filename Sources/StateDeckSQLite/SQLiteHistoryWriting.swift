import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory
import StateDeckNotifications

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The history file's committing side: its connection, the folder's lock, and the file the
/// connection has open, so that a commit goes to the file the path names.
struct SQLiteHistoryWriting {
    private(set) var connection: SQLiteConnection
    let file: HistoryFile
    /// Each panel's row id in `panels`, once known in a saved transaction.
    private var panelKeys: [String: Int64] = [:]
    /// The folder's lock, taken anew when the folder was deleted with the file.
    private var lock: DataFolderLock
    /// The file the connection has open.
    private var openFile: FileIdentity
    /// When the file was found deleted or replaced, while no new one is in its place.
    private var fileLostAt: Date?
    /// The wall clock, to say when the file was lost.
    private let clock: @Sendable () -> Date

    init(file: HistoryFile, database: Database, openFile: FileIdentity, lock: DataFolderLock,
         clock: @escaping @Sendable () -> Date) throws(SQLiteError) {
        connection = SQLiteConnection(database)
        self.file = file
        self.openFile = openFile
        self.lock = lock
        self.clock = clock
        let names = try connection.statement("SELECT id, name FROM panels")
        try names.bind()
        defer { names.reset() }
        while try names.step() {
            if let name = names.text(1) { panelKeys[name] = names.integer(0) }
        }
    }

    /// Lets the folder go: nothing is committed after the store closes.
    func releaseFolder() {
        lock.release()
    }

    /// Commits `batch` in one transaction to the file the path names; when that file was
    /// deleted, makes a new one and commits nothing, for everything to be saved there again.
    mutating func commit(_ batch: HistoryBatch) throws(HistoryDatabaseError) -> CommitOutcome {
        do throws(StoreSaveError) {
            if let notice = try followFileAtPath() { return .startedAnew(notice: notice) }
            let knownKeys = panelKeys
            do {
                try connection.database.transaction { () throws(SQLiteError) in
                    try write(batch)
                    if let expiry = batch.expiry { try deleteExpired(expiry) }
                }
            } catch {
                panelKeys = knownKeys
                throw StoreSaveError.database(error)
            }
            return .committed
        } catch {
            throw trouble(after: error)
        }
    }

    /// Commits the ledger's `writes` in a transaction of their own.
    mutating func commit(_ writes: [NotificationRecords.Write]) throws(HistoryDatabaseError) {
        do {
            try connection.database.transaction { () throws(SQLiteError) in try write(writes) }
        } catch {
            throw trouble(after: .database(error))
        }
    }

    /// Keeps commits going to the file the history's path names (one `lstat` a commit): when the
    /// file open was deleted, makes a new one there and gives the notice to tell for the rest of
    /// the run; when another file took its place, commits nothing and leaves that file alone.
    private mutating func followFileAtPath() throws(StoreSaveError) -> PanelError? {
        let found = FileIdentity.at(file.path)
        switch found {
        case .unknown: return nil
        case .file(let identity) where identity == openFile: return nil
        case .file, .missing: break
        }
        let lostAt = fileLostAt ?? clock()
        fileLostAt = lostAt
        guard found == .missing else { throw .replaced(at: lostAt) }
        do {
            try startNewFile()
        } catch {
            throw .notRecreated(at: lostAt, error)
        }
        fileLostAt = nil
        return PanelError(
            .unknown, title: "History started anew",
            message: "\(HistoryFile.name) was deleted while serving (at \(Self.clockTime(lostAt))); StateDeck started a "
                + "new one and saves there; the changes and tallies it held before are gone.",
            detail: file.path)
    }

    /// Opens a new file at the path, where there is none.
    private mutating func startNewFile() throws(HistoryOpenError) {
        if !lock.isInPlace { lock = try DataFolderLock(folder: file.folder) }
        // Any left are the deleted file's (the folder is locked): SQLite would read the new file
        // with its log.
        file.removeCompanions()
        let opened: (database: Database, file: FileIdentity)
        do {
            opened = try file.open()
        } catch {
            // Else the next commit would take a half-made file for another program's.
            file.remove()
            throw error
        }
        connection = SQLiteConnection(opened.database)
        openFile = opened.file
        panelKeys = [:]
    }

    /// The card a failed commit shows: out of space, can't save, or the file gone from its place.
    private func trouble(after error: StoreSaveError) -> HistoryDatabaseError {
        switch error {
        case .database(let error) where error.isDiskFull:
            HistoryDatabaseError(.outOfSpace, title: "Out of space", notSaved: ": there is no room for it in \(file.folder)",
                                 resumesOnce: "there is space", detail: error.description)
        case .database(let error):
            HistoryDatabaseError(.unknown, title: "Can't save history", notSaved: " to \(file.folder)",
                                 resumesOnce: "the folder can be written again", detail: error.description)
        case .notRecreated(let lostAt, let reason):
            HistoryDatabaseError(
                .unknown, title: "Can't save history",
                notSaved: ": \(HistoryFile.name) was deleted while serving (at \(Self.clockTime(lostAt))) and a new one "
                    + "cannot be made in \(file.folder)",
                resumesOnce: "it can be", detail: reason.description)
        case .replaced(let lostAt):
            HistoryDatabaseError(
                .unknown, title: "Can't save history",
                notSaved: ": \(HistoryFile.name) was replaced while serving (at \(Self.clockTime(lostAt))) by a file "
                    + "StateDeck leaves alone",
                resumesOnce: "that file is moved away (a new one is made in its place)", detail: file.path)
        }
    }

    /// `date` as the hour and minute it was here ("10:42").
    static func clockTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return twoDigits(parts.tm_hour) + ":" + twoDigits(parts.tm_min)
    }

    private mutating func write(_ batch: HistoryBatch) throws(SQLiteError) {
        let insertChange = try connection.statement("""
            INSERT INTO changes (rowid, panel, at, state, duration_ms, error_kind, title, summary, detail, debug)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (panel, entry, position) in batch.changes {
            try insertChange.bind(
                .integer(position), .integer(try key(of: panel)), .integer(entry.at.millisecondsSince1970),
                .integer(entry.stateCode),
                entry.durationMs.map(Statement.Value.integer) ?? .null, .optionalText(entry.errorKind?.rawValue),
                .optionalText(entry.title), .optionalText(entry.summary), .optionalText(entry.detail),
                .integer(entry.debug ? 1 : 0)
            ).run()
        }
        let insertTally = try connection.statement("""
            INSERT OR REPLACE INTO tallies (panel, resolution, start, watch, up_ms, down_ms, loading_ms, loads,
                failures, min_ms, max_ms, total_ms, durations, counted_to, maintenance_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in batch.tallies {
            let tally = row.tally
            try insertTally.bind(
                .integer(try key(of: row.panel)), .integer(Int64(row.resolution.rawValue)), .integer(row.start),
                .integer(row.watch),
                .integer(tally.upMs), .integer(tally.downMs), .integer(tally.loadingMs), .integer(Int64(tally.loads)),
                .integer(Int64(tally.failures)), tally.minMs.map(Statement.Value.integer) ?? .null,
                tally.maxMs.map(Statement.Value.integer) ?? .null, .integer(tally.totalMs),
                .blob(tally.durations.encoded), row.countedTo.map(Statement.Value.integer) ?? .null,
                .integer(tally.maintenanceMs)
            ).run()
        }
        let deleteLatest = try connection.statement("DELETE FROM latest WHERE panel = (SELECT id FROM panels WHERE name = ?)")
        for panel in batch.removedPanels {
            try deleteLatest.bind(.text(panel)).run()
        }
        let upsertLatest = try connection.statement("""
            INSERT OR REPLACE INTO latest (panel, shown, info, error, stale, health, since, forced, last_run, maintenance,
                flap_changes, flapping_since)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for latest in batch.latest {
            try upsertLatest.bind(
                .integer(try key(of: latest.panel)), .optionalText(latest.shown.shown), .optionalText(latest.shown.info),
                .optionalText(latest.shown.error), .integer(latest.shown.stale ? 1 : 0),
                .integer(Int64(latest.health.rawValue)), .integer(latest.since), .integer(latest.forced ? 1 : 0),
                latest.lastRun.map(Statement.Value.integer) ?? .null, .integer(latest.underMaintenance ? 1 : 0),
                .optionalText(latest.flapChangesColumn), latest.flappingSince.map(Statement.Value.integer) ?? .null).run()
        }
        let upsertMaintenance = try connection.statement("""
            INSERT OR REPLACE INTO maintenance (id, start, until, reason, panels, source, schedule) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for span in batch.maintenance.map(\.stored) {
            try upsertMaintenance.bind(.text(span.id), .integer(span.from), .integer(span.until), .text(span.reason),
                                       .text(span.panels), .text(span.source), .optionalText(span.schedule)).run()
        }
        let insertAudit = try connection.statement("""
            INSERT OR IGNORE INTO audit (id, at, actor, role, action, panel, subject, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for entry in batch.audit {
            try insertAudit.bind(.text(entry.id), .integer(entry.at.millisecondsSince1970), .text(entry.actor), .text(entry.role),
                                 .text(entry.action.rawValue), .optionalText(entry.panel), .text(entry.subject),
                                 .text(entry.detail)).run()
        }
        let upsertIncident = try connection.statement("""
            INSERT OR REPLACE INTO incidents (id, title, panels, opened, resolved, updates) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for incident in batch.incidents.map(\.stored) {
            try upsertIncident.bind(.text(incident.id), .text(incident.title), .text(incident.panels),
                                    .integer(incident.opened), incident.resolved.map(Statement.Value.integer) ?? .null,
                                    .text(incident.updates)).run()
        }
        let upsertWatch = try connection.statement("""
            INSERT OR REPLACE INTO watches (id, started, watched_to, tallied_to) VALUES (?, ?, ?, ?)
            """)
        for watch in batch.watches {
            try upsertWatch.bind(.integer(watch.id), .integer(watch.started), .integer(watch.watchedTo),
                                 .integer(watch.talliedTo)).run()
        }
        try write(batch.forms)
        try write(batch.notifications)
        if let eventID = batch.eventID {
            try connection.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_event_id', ?)")
                .bind(.integer(Int64(bitPattern: eventID))).run()
        }
    }

    /// Writes forms of the state document's parts at their positions, inside the caller's transaction.
    private mutating func write(_ forms: [MomentForm]) throws(SQLiteError) {
        let insertPart = try connection.statement("INSERT OR IGNORE INTO form_parts (kind, subject) VALUES (?, ?)")
        let insertForm = try connection.statement("""
            INSERT OR REPLACE INTO forms (rowid, kind, subject, at, form, title, phase, health, summary, from_phase,
                from_health, from_summary, listed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for form in forms {
            let (kind, subject) = form.part.columns
            try insertPart.bind(.integer(kind), .text(subject)).run()
            try insertForm.bind(
                .integer(form.position), .integer(kind), .text(subject), .integer(form.at), .text(form.json),
                .optionalText(form.headline?.title), .optionalText(form.headline?.phase),
                .optionalText(form.headline?.health), .optionalText(form.headline?.summary),
                .optionalText(form.previous?.phase), .optionalText(form.previous?.health),
                .optionalText(form.previous?.summary), .integer(form.isChange ? 1 : 0)).run()
        }
    }

    /// Writes the ledger's outages and deliveries, inside the caller's transaction.
    private mutating func write(_ writes: [NotificationRecords.Write]) throws(SQLiteError) {
        for write in writes {
            switch write {
            case .keepOutage(let key, let watch):
                try connection.statement("INSERT OR REPLACE INTO notify_outages (key, watch) VALUES (?, ?)")
                    .bind(.text(key), .text(watch)).run()
            case .forgetOutage(let key):
                try connection.statement("DELETE FROM notify_outages WHERE key = ?").bind(.text(key)).run()
            case .keepDelivery(let id, let key, let at, let delivery):
                try connection.statement("INSERT OR REPLACE INTO notify_outbox (id, key, at, notification) VALUES (?, ?, ?, ?)")
                    .bind(.text(id), .text(key), .integer(at.millisecondsSince1970), .text(delivery)).run()
            case .forgetDelivery(let id):
                try connection.statement("DELETE FROM notify_outbox WHERE id = ?").bind(.text(id)).run()
            }
        }
    }

    /// Deletes what retention no longer keeps, and keeps the furthest `now` it deleted by: a later
    /// run may open behind it (the wall clock was set back), and must know what is gone.
    private mutating func deleteExpired(_ expiry: HistoryExpiry) throws(SQLiteError) {
        let (retention, now) = (expiry.retention, expiry.now)
        try connection.statement("""
            INSERT INTO meta (key, value) VALUES ('retention_now', ?) ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)
            """).bind(.integer(now)).run()
        try connection.statement("DELETE FROM changes WHERE at < ?").bind(.integer(retention.changesCutoff(now: now))).run()
        let delete = try connection.statement("DELETE FROM tallies WHERE panel = ? AND resolution = ? AND start < ?")
        for key in panelKeys.values {
            for resolution in Resolution.allCases {
                try delete.bind(.integer(key), .integer(Int64(resolution.rawValue)),
                                .integer(retention.cutoff(of: resolution, now: now))).run()
            }
        }
        // Each part's form a moment just before the cutoff shows (the newest by time, of two at one
        // time the one kept last) is its checkpoint there; the others before it go.
        let formsCutoff = Statement.Value.integer(retention.changesCutoff(now: now))
        try connection.statement("""
            DELETE FROM forms WHERE at < ?1 AND rowid NOT IN (SELECT rowid FROM (
                SELECT rowid, row_number() OVER (PARTITION BY kind, subject ORDER BY at DESC, rowid DESC) AS newest
                FROM forms WHERE at < ?1) WHERE newest = 1)
            """).bind(formsCutoff).run()
        // Moved there, it is its part's first form: a panel's health there begins with it.
        try connection.statement("""
            UPDATE forms SET at = ?1, listed = 0, from_phase = NULL, from_health = NULL, from_summary = NULL WHERE at < ?1
            """).bind(formsCutoff).run()
        // A part gone by the cutoff is in no moment kept.
        try connection.statement("DELETE FROM forms WHERE at = ?1 AND form = ''").bind(formsCutoff).run()
        try connection.statement("DELETE FROM watches WHERE watched_to < ? AND id != ?")
            .bind(.integer(retention.cutoff(of: .day, now: now)), .integer(expiry.counting)).run()
        try connection.statement("DELETE FROM maintenance WHERE until < ?").bind(.integer(retention.cutoff(of: .day, now: now))).run()
        try connection.statement("DELETE FROM audit WHERE at < ?").bind(.integer(retention.cutoff(of: .day, now: now))).run()
        try connection.statement("DELETE FROM incidents WHERE resolved < ?")
            .bind(.integer(Incident.StoredColumns.cutoff(now: now))).run()
    }

    /// The row id of `panel` in `panels`, added on first use.
    private mutating func key(of panel: String) throws(SQLiteError) -> Int64 {
        if let key = panelKeys[panel] { return key }
        try connection.statement("INSERT OR IGNORE INTO panels (name) VALUES (?)").bind(.text(panel)).run()
        let select = try connection.statement("SELECT id FROM panels WHERE name = ?")
        try select.bind(.text(panel))
        defer { select.reset() }
        guard try select.step() else { throw SQLiteError(code: 1, message: "panel \(panel) was not saved") }
        let key = select.integer(0)
        panelKeys[panel] = key
        return key
    }
}

/// Why a commit to the SQLite file failed; what waits stays in memory for the next.
enum StoreSaveError: Error {
    /// SQLite refused the transaction.
    case database(SQLiteError)
    /// The file was found deleted `at`, and no new one could be made.
    case notRecreated(at: Date, HistoryOpenError)
    /// Another file took the file's place, found `at`; it is left alone.
    case replaced(at: Date)
}

extension Statement.Value {
    static func optionalText(_ text: String?) -> Statement.Value {
        text.map(Statement.Value.text) ?? .null
    }
}
