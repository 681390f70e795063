import FoundationEssentials
import Locking
import SQLite
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// The history file as a ``HistoryDatabase``: one connection commits and another reads, each
/// under its own lock, so a read never waits for a commit (WAL mode lets a reader go on beside
/// the writer, from the newest commit).
final class SQLiteHistoryDatabase: HistoryDatabase {
    let file: HistoryFile
    private let writing: Locked<SQLiteHistoryWriting>
    private let reading: Locked<SQLiteConnection>

    init(writing: SQLiteHistoryWriting, reader: Database) {
        file = writing.file
        self.writing = Locked(writing)
        reading = Locked(SQLiteConnection(reader))
    }

    func readyToCommit(placing: Bool) -> StoredPositions? { nil }

    /// Nothing to take: the folder's lock lets one process at a time open it at all.
    func takeWriting() {}

    func commit(_ batch: HistoryBatch) throws(HistoryDatabaseError) -> CommitOutcome {
        try writing.withLock { writing throws(HistoryDatabaseError) in
            let outcome = try writing.commit(batch)
            if case .startedAnew = outcome {
                // The reader has the deleted file open; the new one is empty until the keeper saves again.
                if let reader = try? file.openReader() { reading.withLock { $0 = SQLiteConnection(reader) } }
            }
            return outcome
        }
    }

    func commit(_ writes: [NotificationRecords.Write]) throws(HistoryDatabaseError) {
        try writing.withLock { writing throws(HistoryDatabaseError) in try writing.commit(writes) }
    }

    /// Nothing to write: the folder's lock lets one process at a time open it at all, and the
    /// notifier hands a delivery to one notifier only.
    func claim(deliveries ids: [String]) -> Set<String> { Set(ids) }

    /// Folds the log into the file, so that a copy of the file alone is the whole history, and
    /// lets the folder go.
    func close() {
        writing.withLock { writing in
            try? writing.connection.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            writing.releaseFolder()
        }
    }

    // MARK: Reading

    /// Runs `body` on the read connection; an SQLite error becomes the history's.
    private func read<T>(_ body: (inout SQLiteConnection) throws(SQLiteError) -> T) throws(HistoryDatabaseError) -> T {
        do {
            return try reading.withLock { connection throws(SQLiteError) in try body(&connection) }
        } catch {
            throw .unreadable(error.description, from: file.path)
        }
    }

    func load(following: Bool) throws(HistoryDatabaseError) -> StoredHistory {
        try read { connection throws(SQLiteError) in
            let database = connection.database
            let watches = try connection.statement("SELECT id, started, watched_to, tallied_to FROM watches")
            try watches.bind()
            defer { watches.reset() }
            var kept: [HistoryWatch] = []
            while try watches.step() {
                kept.append(HistoryWatch(id: watches.integer(0), started: watches.integer(1),
                                         watchedTo: watches.integer(2), talliedTo: watches.integer(3)))
            }
            let rows = try connection.statement("""
                SELECT p.name, l.shown, l.info, l.error, l.stale, l.health, l.since, l.forced, l.last_run, l.maintenance,
                    l.flap_changes, l.flapping_since
                FROM latest l JOIN panels p ON p.id = l.panel
                """)
            try rows.bind()
            defer { rows.reset() }
            var latest: [LatestRow] = []
            while try rows.step() {
                guard let name = rows.text(0) else { continue }
                latest.append(LatestRow(
                    panel: name,
                    shown: ShownState.StoredColumns(shown: rows.text(1), info: rows.text(2), error: rows.text(3),
                                                    stale: rows.integer(4) != 0),
                    health: Health(rawValue: Int(rows.integer(5))) ?? .unknown, since: rows.integer(6),
                    forced: rows.integer(7) != 0, lastRun: rows.optionalInteger(8), underMaintenance: rows.integer(9) != 0,
                    flapChanges: LatestRow.flapChanges(column: rows.text(10)), flappingSince: rows.optionalInteger(11)))
            }
            return StoredHistory(
                eventID: UInt64(try database.integer("SELECT value FROM meta WHERE key = 'last_event_id'") ?? 0),
                watches: kept, lastPosition: try database.integer("SELECT max(rowid) FROM changes") ?? 0,
                latest: latest, notifications: following ? try Self.notifications(&connection) : NotificationRecords(),
                maintenance: try Self.maintenance(&connection), incidents: try Self.incidents(&connection),
                lastFormPosition: try database.integer("SELECT max(rowid) FROM forms") ?? 0,
                forms: try Self.newestForms(&connection),
                furthestRetentionNow: try database.integer("SELECT value FROM meta WHERE key = 'retention_now'"))
        }
    }

    /// The columns every form read selects, `f` being the form.
    private static let formColumns = """
        f.rowid, f.kind, f.subject, f.at, f.form, f.title, f.phase, f.health, f.summary, f.from_phase, f.from_health,
        f.from_summary
        """

    /// The form `select` stands on, read from ``formColumns``.
    private static func form(_ select: Statement) -> MomentForm? {
        guard let part = MomentForm.Part(kind: select.integer(1), subject: select.text(2) ?? "") else { return nil }
        func headline(_ first: Int32) -> MomentHeadline? {
            guard let phase = select.text(first), let health = select.text(first + 1) else { return nil }
            return MomentHeadline(title: select.text(5) ?? "", phase: phase, health: health, summary: select.text(first + 2))
        }
        var form = MomentForm(part: part, at: select.integer(3), json: select.text(4) ?? "null", headline: headline(6),
                              previous: headline(9))
        form.position = select.integer(0)
        return form
    }

    /// The newest form of each part at or before `at`: one look-up of the index a part.
    private static func forms(at: Int64, _ connection: inout SQLiteConnection) throws(SQLiteError) -> [MomentForm] {
        try forms(connection.statement("""
            SELECT \(formColumns) FROM form_parts p JOIN forms f ON f.rowid = (
                SELECT rowid FROM forms WHERE kind = p.kind AND subject = p.subject AND at <= ?1 ORDER BY at DESC, rowid DESC LIMIT 1)
            """), binding: [.integer(at)])
    }

    /// Each part's newest form by time (of two at one time, the one kept last), which the next
    /// is compared with, and the one kept last, whose headline the next names as before: after
    /// the wall clock was set back, two. Read once, at open: two looks at each part's forms.
    private static func newestForms(_ connection: inout SQLiteConnection) throws(SQLiteError) -> [MomentForm] {
        try forms(connection.statement("""
            SELECT \(formColumns) FROM form_parts p JOIN forms f ON f.rowid IN (
                (SELECT rowid FROM forms WHERE kind = p.kind AND subject = p.subject ORDER BY at DESC, rowid DESC LIMIT 1),
                (SELECT max(rowid) FROM forms WHERE kind = p.kind AND subject = p.subject))
            """), binding: [])
    }

    /// The forms `select`, reading ``formColumns``, gives with `values` bound.
    private static func forms(_ select: Statement, binding values: [Statement.Value]) throws(SQLiteError) -> [MomentForm] {
        try select.bind(values)
        defer { select.reset() }
        var found: [MomentForm] = []
        while try select.step() {
            if let form = form(select) { found.append(form) }
        }
        return found
    }

    func forms(at: Int64) throws(HistoryDatabaseError) -> [MomentForm] {
        try read { connection throws(SQLiteError) in try Self.forms(at: at, &connection) }
    }

    func oldestForm() throws(HistoryDatabaseError) -> Int64? {
        // The oldest row by time: no row is none, where `min(at)` would read as 0.
        try read { connection throws(SQLiteError) in try connection.database.integer("SELECT at FROM forms ORDER BY at LIMIT 1") }
    }

    func formChanges(in range: FormChangeRange) throws(HistoryDatabaseError) -> [MomentForm] {
        try read { connection throws(SQLiteError) in
            let (past, direction) = range.order == .oldestFirst ? (">", "ASC") : ("<", "DESC")
            let select = try connection.statement("""
                SELECT \(Self.formColumns) FROM forms f
                WHERE f.listed = 1 AND f.at >= ? AND f.at <= ? AND (f.at \(past) ?3 OR (f.at = ?3 AND f.rowid \(past) ?))
                ORDER BY f.at \(direction), f.rowid \(direction) LIMIT ?
                """)
            try select.bind(.integer(range.from), .integer(range.to), .integer(range.cursor.at), .integer(range.cursor.position),
                            .integer(Int64(range.limit)))
            defer { select.reset() }
            var found: [MomentForm] = []
            while try select.step() {
                if let form = Self.form(select) { found.append(form) }
            }
            return found
        }
    }

    func panelForm(of panel: String, atOrBefore at: Int64, changingHealthTo health: String?)
        throws(HistoryDatabaseError) -> MomentForm? {
        try read { connection throws(SQLiteError) in
            let select = try connection.statement("""
                SELECT \(Self.formColumns) FROM forms f
                WHERE f.kind = 0 AND f.subject = ?1 AND f.at <= ?2
                    AND (?3 IS NULL OR (f.health = ?3 AND (f.from_health IS NULL OR f.from_health <> f.health)))
                ORDER BY f.at DESC, f.rowid DESC LIMIT 1
                """)
            try select.bind(.text(panel), .integer(at), .optionalText(health))
            defer { select.reset() }
            return try select.step() ? Self.form(select) : nil
        }
    }

    /// The incidents kept.
    private static func incidents(_ connection: inout SQLiteConnection) throws(SQLiteError) -> [Incident] {
        let rows = try connection.statement("SELECT id, title, panels, opened, resolved, updates FROM incidents")
        try rows.bind()
        defer { rows.reset() }
        var incidents: [Incident] = []
        while try rows.step() {
            guard let id = rows.text(0), let title = rows.text(1), let panels = rows.text(2), let updates = rows.text(5)
            else { continue }
            let columns = Incident.StoredColumns(id: id, title: title, panels: panels, opened: rows.integer(3),
                                                 resolved: rows.optionalInteger(4), updates: updates)
            if let incident = Incident(stored: columns) { incidents.append(incident) }
        }
        return incidents
    }

    /// The maintenance windows kept.
    private static func maintenance(_ connection: inout SQLiteConnection) throws(SQLiteError) -> [MaintenanceSpan] {
        let rows = try connection.statement("SELECT id, start, until, reason, panels, source, schedule FROM maintenance")
        try rows.bind()
        defer { rows.reset() }
        var spans: [MaintenanceSpan] = []
        while try rows.step() {
            guard let id = rows.text(0), let reason = rows.text(3), let panels = rows.text(4), let source = rows.text(5)
            else { continue }
            let columns = MaintenanceSpan.StoredColumns(id: id, from: rows.integer(1), until: rows.integer(2), reason: reason,
                                                        panels: panels, source: source, schedule: rows.text(6))
            if let span = MaintenanceSpan(stored: columns) { spans.append(span) }
        }
        return spans
    }

    /// The outages and the deliveries not done.
    private static func notifications(_ connection: inout SQLiteConnection) throws(SQLiteError) -> NotificationRecords {
        var outages: [(key: String, watch: String)] = []
        let outageRows = try connection.statement("SELECT key, watch FROM notify_outages")
        try outageRows.bind()
        defer { outageRows.reset() }
        while try outageRows.step() {
            if let key = outageRows.text(0), let json = outageRows.text(1) { outages.append((key, json)) }
        }
        var deliveries: [String] = []
        let outbox = try connection.statement("SELECT notification FROM notify_outbox")
        try outbox.bind()
        defer { outbox.reset() }
        while try outbox.step() {
            if let json = outbox.text(0) { deliveries.append(json) }
        }
        return NotificationRecords(outages: outages, deliveries: deliveries)
    }

    func changes(of panel: String, in range: ChangeRange) throws(HistoryDatabaseError) -> [PositionedEntry] {
        try read { connection throws(SQLiteError) in
            let select = try connection.statement("""
                SELECT rowid, at, state, duration_ms, error_kind, title, summary, detail, debug FROM changes
                WHERE panel = (SELECT id FROM panels WHERE name = ?) AND at >= ? AND at <= ?
                    AND (at < ? OR (at = ? AND rowid < ?))
                ORDER BY at DESC, rowid DESC LIMIT ?
                """)
            try select.bind(.text(panel), .integer(range.from), .integer(range.to), .integer(range.cursor.at),
                            .integer(range.cursor.at), .integer(range.cursor.position), .integer(Int64(range.limit)))
            defer { select.reset() }
            var found: [PositionedEntry] = []
            while try select.step() {
                found.append((HistoryEntry(
                    at: select.integer(1), stateCode: select.integer(2), durationMs: select.optionalInteger(3),
                    errorKind: select.text(4), title: select.text(5), summary: select.text(6), detail: select.text(7),
                    debug: select.integer(8) != 0), select.integer(0)))
            }
            return found
        }
    }

    func auditEntries(_ query: AuditQuery) throws(HistoryDatabaseError) -> [AuditEntry] {
        try read { connection throws(SQLiteError) in
            let select = try connection.statement("""
                SELECT id, at, actor, role, action, panel, subject, detail FROM audit
                WHERE at >= ? AND at <= ? AND (?3 IS NULL OR panel = ?3)
                ORDER BY at DESC, id DESC LIMIT ?
                """)
            try select.bind(.integer(query.range.lowerBound), .integer(query.range.upperBound), .optionalText(query.panel),
                            .integer(Int64(query.limit)))
            defer { select.reset() }
            var found: [AuditEntry] = []
            while try select.step() {
                if let entry = AuditEntry(stored: select.text(0) ?? "", at: select.integer(1), actor: select.text(2) ?? "",
                                          role: select.text(3) ?? "", action: select.text(4) ?? "", panel: select.text(5),
                                          subject: select.text(6) ?? "", detail: select.text(7) ?? "") {
                    found.append(entry)
                }
            }
            return found
        }
    }

    func tallies(of panel: String, _ resolution: Resolution, from: Int64) throws(HistoryDatabaseError) -> [TallyRow] {
        try read { connection throws(SQLiteError) in
            let select = try connection.statement("""
                SELECT start, up_ms, down_ms, loading_ms, loads, failures, min_ms, max_ms, total_ms, durations, watch,
                    counted_to, maintenance_ms
                FROM tallies WHERE panel = (SELECT id FROM panels WHERE name = ?) AND resolution = ? AND start >= ?
                ORDER BY start
                """)
            try select.bind(.text(panel), .integer(Int64(resolution.rawValue)), .integer(from))
            defer { select.reset() }
            var rows: [TallyRow] = []
            while try select.step() {
                rows.append(TallyRow(
                    panel: panel, resolution: resolution, start: select.integer(0), watch: select.integer(10),
                    tally: Tally(upMs: select.integer(1), downMs: select.integer(2), loadingMs: select.integer(3),
                                 maintenanceMs: select.integer(12), loads: Int(select.integer(4)), failures: Int(select.integer(5)),
                                 minMs: select.optionalInteger(6), maxMs: select.optionalInteger(7),
                                 totalMs: select.integer(8), durations: select.blob(9)),
                    countedTo: select.optionalInteger(11)))
            }
            return rows
        }
    }

    func newestEntries(of panel: String, limit: Int) throws(HistoryDatabaseError) -> [ViewStateHistory.Entry] {
        try read { connection throws(SQLiteError) in
            let select = try connection.statement("""
                SELECT at, state FROM changes WHERE panel = (SELECT id FROM panels WHERE name = ?)
                ORDER BY at DESC, rowid DESC LIMIT ?
                """)
            try select.bind(.text(panel), .integer(Int64(limit)))
            defer { select.reset() }
            var entries: [ViewStateHistory.Entry] = []
            while try select.step() {
                entries.append(ViewStateHistory.Entry(state: HistoryEntry.state(code: select.integer(1)),
                                                      at: Date(millisecondsSince1970: select.integer(0))))
            }
            return entries
        }
    }
}
