import FoundationEssentials
import Locking
import Postgres
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// StateDeck's tables in a PostgreSQL database (its schema `statedeck`, see ``PostgresSchema``) as
/// a ``HistoryDatabase``: one session commits and another reads, each under its own lock, so a
/// read never waits for a commit. A session that breaks is made anew when next needed, waiting
/// longer after each failed attempt (`reconnectDelays`).
final class PostgresHistoryDatabase: HistoryDatabase {
    let address: PostgresStoreAddress
    private let writing: Locked<Writing>
    private let reading: Locked<PostgresSessionSlot>

    /// The committing session, each panel's id in `statedeck.panels` once known in a saved
    /// transaction, and the epoch this process took the history over in (nil before it did).
    private struct Writing {
        var slot: PostgresSessionSlot
        var panelKeys: [String: Int64] = [:]
        var epoch: Int64?
    }

    /// Rows sent in one `INSERT`: fewer round trips than one a row, within PostgreSQL's 65,535
    /// parameters a statement.
    static let rowsPerInsert = 500

    /// Over `session`, migrated, which commits; reads make their own session.
    init(address: PostgresStoreAddress, session: PostgresConnection, reconnectDelays: ClosedRange<Duration>) {
        self.address = address
        writing = Locked(Writing(slot: PostgresSessionSlot(session, delays: reconnectDelays)))
        reading = Locked(PostgresSessionSlot(nil, delays: reconnectDelays))
    }

    private var server: String { address.server }

    /// A new session, with StateDeck's tables made or upgraded.
    private func connect() throws(PostgresError) -> PostgresConnection {
        let session = try PostgresConnection(address.url)
        do {
            try PostgresSchema.migrate(session, server: server)
        } catch {
            throw PostgresError(kind: .statement, message: error.description)
        }
        return session
    }

    /// The card while the server cannot be reached, or refuses.
    private func trouble(_ error: PostgresError, lost: Bool) -> HistoryDatabaseError {
        lost
            ? HistoryDatabaseError(.unreachable, title: "Can't reach PostgreSQL",
                                   notSaved: ": PostgreSQL at \(server) cannot be reached", resumesOnce: "it is back",
                                   detail: error.message.isEmpty ? nil : error.message)
            : HistoryDatabaseError(.unknown, title: "Can't save history", notSaved: " to PostgreSQL at \(server)",
                                   resumesOnce: "the server takes it again", detail: error.message)
    }

    // MARK: Committing

    /// Runs `body` on the committing session, made anew when it was lost; a session the error
    /// broke is dropped.
    private func commitWith<T>(_ body: (PostgresConnection, inout Writing) throws(PostgresError) -> T) throws(HistoryDatabaseError) -> T {
        try writing.withLock { writing throws(HistoryDatabaseError) in
            let session: PostgresConnection
            do throws(PostgresError) {
                session = try writing.slot.connected { () throws(PostgresError) in
                    let session = try connect()
                    // The ids known may be gone (a server restored from a backup, or one that lost its last commits).
                    writing.panelKeys = [:]
                    return session
                }
            } catch {
                throw trouble(error, lost: true)
            }
            let knownKeys = writing.panelKeys
            do throws(PostgresError) {
                return try body(session, &writing)
            } catch {
                writing.panelKeys = knownKeys
                writing.slot.failed(error)
                throw trouble(error, lost: writing.slot.session == nil)
            }
        }
    }

    func readyToCommit(placing: Bool) throws(HistoryDatabaseError) -> StoredPositions? {
        try commitWith { session, _ throws(PostgresError) -> StoredPositions? in
            guard placing else { return nil }
            // Another process (a leader before this one) may have saved changes and forms since this one read them.
            let newest = try session.query("""
                SELECT (SELECT coalesce(max(id), 0) FROM statedeck.changes), (SELECT coalesce(max(id), 0) FROM statedeck.forms)
                """)
            return StoredPositions(change: newest.integer(0, 0) ?? 0, form: newest.integer(0, 1) ?? 0)
        }
    }

    /// Takes the history over in a new epoch: `writer_epoch` counts the takeovers, and every
    /// commit checks in its own transaction that it is still this one's.
    func takeWriting() throws(HistoryDatabaseError) {
        try commitWith { session, writing throws(PostgresError) in
            writing.epoch = try session.query("""
                INSERT INTO statedeck.meta (key, value) VALUES ('writer_epoch', 1)
                ON CONFLICT (key) DO UPDATE SET value = statedeck.meta.value + 1 RETURNING value
                """).integer(0, 0)
        }
    }

    func commit(_ batch: HistoryBatch) throws(HistoryDatabaseError) -> CommitOutcome {
        try fenced { session, writing throws(PostgresError) in
            try Self.write(batch, session, &writing.panelKeys)
            if let expiry = batch.expiry { try Self.deleteExpired(expiry, session) }
        }
        return .committed
    }

    func commit(_ writes: [NotificationRecords.Write]) throws(HistoryDatabaseError) {
        try fenced { session, _ throws(PostgresError) in try Self.write(writes, session) }
    }

    /// Marks each delivery claimed in this epoch, unless a claim of this epoch or a later one
    /// holds it; the rows of deliveries done are gone, so a memory that still holds one claims
    /// nothing. A process killed between its claim and the target's answer leaves its claim to
    /// the next epoch, which sends the delivery again under the same id.
    func claim(deliveries ids: [String]) throws(HistoryDatabaseError) -> Set<String> {
        guard !ids.isEmpty else { return [] }
        var claimed: Set<String> = []
        try fenced { session, writing throws(PostgresError) in
            let rows = try session.query("""
                UPDATE statedeck.notify_outbox SET claimed = $2
                WHERE id = ANY(string_to_array($1, ',')) AND (claimed IS NULL OR claimed < $2) RETURNING id
                """, [ids.joined(separator: ","), String(writing.epoch ?? 0)])
            claimed = Set((0..<rows.count).compactMap { rows[$0, 0] })
        }
        return claimed
    }

    /// Runs `body` in a transaction that first checks, holding the epoch's row against a takeover
    /// until it ends, that no process took the history over since this one did; if one did,
    /// writes nothing and throws ``HistoryDatabaseError/fenced(_:)``.
    private func fenced(_ body: (PostgresConnection, inout Writing) throws(PostgresError) -> Void) throws(HistoryDatabaseError) {
        let current = try commitWith { session, writing throws(PostgresError) -> Bool in
            try session.transaction { () throws(PostgresError) -> Bool in
                if let epoch = writing.epoch {
                    let now = try session.query("SELECT value FROM statedeck.meta WHERE key = 'writer_epoch' FOR SHARE")
                    guard now.integer(0, 0) == epoch else { return false }
                }
                try body(session, &writing)
                return true
            }
        }
        guard current else { throw .fenced("PostgreSQL at \(server)") }
    }

    /// The sessions end with the database.
    func close() {}

    private static func write(_ batch: HistoryBatch, _ session: PostgresConnection,
                              _ keys: inout [String: Int64]) throws(PostgresError) {
        var changes: [[String?]] = []
        changes.reserveCapacity(batch.changes.count)
        for (panel, entry, position) in batch.changes {
            changes.append([
                String(position), String(try key(of: panel, session, &keys)), String(entry.at.millisecondsSince1970),
                String(entry.stateCode),
                entry.durationMs.map(String.init), entry.errorKind?.rawValue, entry.title, entry.summary, entry.detail,
                entry.debug ? "true" : "false",
            ])
        }
        try insert(session, "INSERT INTO statedeck.changes (id, panel, at, state, duration_ms, error_kind, title, summary, detail, debug)",
                   changes)
        var tallies: [[String?]] = []
        for row in batch.tallies {
            let tally = row.tally
            tallies.append([
                String(try key(of: row.panel, session, &keys)), String(row.resolution.rawValue), String(row.start),
                String(row.watch), String(tally.upMs), String(tally.downMs), String(tally.loadingMs), String(tally.loads),
                String(tally.failures), tally.minMs.map(String.init), tally.maxMs.map(String.init), String(tally.totalMs),
                ByteaText.encode(tally.durations.encoded), row.countedTo.map(String.init), String(tally.maintenanceMs),
            ])
        }
        try insert(session, """
            INSERT INTO statedeck.tallies (panel, resolution, start, watch, up_ms, down_ms, loading_ms, loads, failures,
                min_ms, max_ms, total_ms, durations, counted_to, maintenance_ms)
            """, tallies, then: """
            ON CONFLICT (panel, resolution, start, watch) DO UPDATE SET up_ms = EXCLUDED.up_ms, down_ms = EXCLUDED.down_ms,
                loading_ms = EXCLUDED.loading_ms, loads = EXCLUDED.loads, failures = EXCLUDED.failures,
                min_ms = EXCLUDED.min_ms, max_ms = EXCLUDED.max_ms, total_ms = EXCLUDED.total_ms,
                durations = EXCLUDED.durations, counted_to = EXCLUDED.counted_to, maintenance_ms = EXCLUDED.maintenance_ms
            """)
        for panel in batch.removedPanels {
            try session.query("DELETE FROM statedeck.latest WHERE panel = (SELECT id FROM statedeck.panels WHERE name = $1)",
                              [panel])
        }
        var latest: [[String?]] = []
        for row in batch.latest {
            latest.append([
                String(try key(of: row.panel, session, &keys)), row.shown.shown, row.shown.info, row.shown.error,
                row.shown.stale ? "true" : "false", String(row.health.rawValue), String(row.since),
                row.forced ? "true" : "false", row.lastRun.map(String.init), row.underMaintenance ? "true" : "false",
                row.flapChangesColumn, row.flappingSince.map(String.init),
            ])
        }
        try insert(session, """
            INSERT INTO statedeck.latest (panel, shown, info, error, stale, health, since, forced, last_run, maintenance,
                flap_changes, flapping_since)
            """, latest, then: """
            ON CONFLICT (panel) DO UPDATE SET shown = EXCLUDED.shown, info = EXCLUDED.info, error = EXCLUDED.error,
                stale = EXCLUDED.stale, health = EXCLUDED.health, since = EXCLUDED.since, forced = EXCLUDED.forced,
                last_run = EXCLUDED.last_run, maintenance = EXCLUDED.maintenance,
                flap_changes = EXCLUDED.flap_changes, flapping_since = EXCLUDED.flapping_since
            """)
        try insert(session, "INSERT INTO statedeck.maintenance (id, start, until, reason, panels, source, schedule)",
                   batch.maintenance.map(\.stored).map { span in
                       [span.id, String(span.from), String(span.until), span.reason, span.panels, span.source, span.schedule]
                   },
                   then: """
            ON CONFLICT (id, start) DO UPDATE SET until = EXCLUDED.until, reason = EXCLUDED.reason, panels = EXCLUDED.panels,
                source = EXCLUDED.source, schedule = EXCLUDED.schedule
            """)
        try insert(session, "INSERT INTO statedeck.audit (id, at, actor, role, action, panel, subject, detail)",
                   batch.audit.map { entry in
                       [entry.id, String(entry.at.millisecondsSince1970), entry.actor, entry.role, entry.action.rawValue,
                        entry.panel, entry.subject, entry.detail]
                   },
                   then: "ON CONFLICT (id) DO NOTHING")
        try insert(session, "INSERT INTO statedeck.incidents (id, title, panels, opened, resolved, updates)",
                   batch.incidents.map(\.stored).map { incident in
                       [incident.id, incident.title, incident.panels, String(incident.opened),
                        incident.resolved.map(String.init), incident.updates]
                   },
                   then: """
            ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, panels = EXCLUDED.panels, opened = EXCLUDED.opened,
                resolved = EXCLUDED.resolved, updates = EXCLUDED.updates
            """)
        try insert(session, "INSERT INTO statedeck.watches (id, started, watched_to, tallied_to)",
                   batch.watches.map { [String($0.id), String($0.started), String($0.watchedTo), String($0.talliedTo)] },
                   then: "ON CONFLICT (id) DO UPDATE SET watched_to = EXCLUDED.watched_to, tallied_to = EXCLUDED.tallied_to")
        try insert(session, "INSERT INTO statedeck.form_parts (kind, subject)",
                   Array(Set(batch.forms.map { $0.part })).map { part in [String(part.columns.kind), part.columns.subject] },
                   then: "ON CONFLICT DO NOTHING")
        try insert(session, """
            INSERT INTO statedeck.forms (id, kind, subject, at, form, title, phase, health, summary, from_phase, from_health,
                from_summary, listed)
            """, batch.forms.map { form in
                [String(form.position), String(form.part.columns.kind), form.part.columns.subject, String(form.at), form.json,
                 form.headline?.title, form.headline?.phase, form.headline?.health, form.headline?.summary,
                 form.previous?.phase, form.previous?.health, form.previous?.summary, form.isChange ? "true" : "false"]
            })
        try write(batch.notifications, session)
        if let eventID = batch.eventID {
            try session.query("""
                INSERT INTO statedeck.meta (key, value) VALUES ('last_event_id', $1)
                ON CONFLICT (key) DO UPDATE SET value = greatest(statedeck.meta.value, EXCLUDED.value)
                """, [String(Int64(bitPattern: eventID))])
        }
    }

    /// Runs `insert VALUES (…), (…) then` for `rows`, a few hundred rows a statement.
    private static func insert(_ session: PostgresConnection, _ insert: String, _ rows: [[String?]],
                               then suffix: String = "") throws(PostgresError) {
        guard let width = rows.first?.count else { return }
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + rowsPerInsert)]
            let values = chunk.indices.map { row in
                let first = (row - start) * width
                return "(" + (1...width).map { "$\(first + $0)" }.joined(separator: ", ") + ")"
            }
            try session.query(insert + " VALUES " + values.joined(separator: ", ") + " " + suffix, Array(chunk.joined()))
            start += chunk.count
        }
    }

    /// Writes the ledger's outages and deliveries, inside the caller's transaction.
    private static func write(_ writes: [NotificationRecords.Write], _ session: PostgresConnection) throws(PostgresError) {
        for write in writes {
            switch write {
            case .keepOutage(let key, let watch):
                try session.query("""
                    INSERT INTO statedeck.notify_outages (key, watch) VALUES ($1, $2)
                    ON CONFLICT (key) DO UPDATE SET watch = EXCLUDED.watch
                    """, [key, watch])
            case .forgetOutage(let key):
                try session.query("DELETE FROM statedeck.notify_outages WHERE key = $1", [key])
            case .keepDelivery(let id, let key, let at, let delivery):
                try session.query("""
                    INSERT INTO statedeck.notify_outbox (id, key, at, notification) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (id) DO UPDATE SET key = EXCLUDED.key, at = EXCLUDED.at, notification = EXCLUDED.notification
                    """, [id, key, String(at.millisecondsSince1970), delivery])
            case .forgetDelivery(let id):
                try session.query("DELETE FROM statedeck.notify_outbox WHERE id = $1", [id])
            }
        }
    }

    /// Deletes what retention no longer keeps, and keeps the furthest `now` it deleted by: a later
    /// run may open behind it (the wall clock was set back), and must know what is gone.
    private static func deleteExpired(_ expiry: HistoryExpiry, _ session: PostgresConnection) throws(PostgresError) {
        let (retention, now) = (expiry.retention, expiry.now)
        try session.query("""
            INSERT INTO statedeck.meta (key, value) VALUES ('retention_now', $1)
            ON CONFLICT (key) DO UPDATE SET value = greatest(statedeck.meta.value, EXCLUDED.value)
            """, [String(now)])
        try session.query("DELETE FROM statedeck.changes WHERE at < $1", [String(retention.changesCutoff(now: now))])
        for resolution in Resolution.allCases {
            try session.query("DELETE FROM statedeck.tallies WHERE resolution = $1 AND start < $2",
                              [String(resolution.rawValue), String(retention.cutoff(of: resolution, now: now))])
        }
        // Each part's form a moment just before the cutoff shows (the newest by time, of two at one
        // time the one kept last) is its checkpoint there; the others before it go.
        let formsCutoff = [String(retention.changesCutoff(now: now))]
        try session.query("""
            DELETE FROM statedeck.forms WHERE at < $1 AND id NOT IN (SELECT id FROM (
                SELECT id, row_number() OVER (PARTITION BY kind, subject ORDER BY at DESC, id DESC) AS newest
                FROM statedeck.forms WHERE at < $1) checkpoints WHERE newest = 1)
            """, formsCutoff)
        // Moved there, it is its part's first form: a panel's health there begins with it.
        try session.query("""
            UPDATE statedeck.forms SET at = $1, listed = false, from_phase = NULL, from_health = NULL, from_summary = NULL
            WHERE at < $1
            """, formsCutoff)
        // A part gone by the cutoff is in no moment kept.
        try session.query("DELETE FROM statedeck.forms WHERE at = $1 AND form = ''", formsCutoff)
        try session.query("DELETE FROM statedeck.watches WHERE watched_to < $1 AND id <> $2",
                          [String(retention.cutoff(of: .day, now: now)), String(expiry.counting)])
        try session.query("DELETE FROM statedeck.maintenance WHERE until < $1", [String(retention.cutoff(of: .day, now: now))])
        try session.query("DELETE FROM statedeck.audit WHERE at < $1", [String(retention.cutoff(of: .day, now: now))])
        try session.query("DELETE FROM statedeck.incidents WHERE resolved < $1",
                          [String(Incident.StoredColumns.cutoff(now: now))])
    }

    /// The id of `panel` in `statedeck.panels`, added on first use.
    private static func key(of panel: String, _ session: PostgresConnection,
                            _ keys: inout [String: Int64]) throws(PostgresError) -> Int64 {
        if let key = keys[panel] { return key }
        let rows = try session.query("""
            WITH added AS (INSERT INTO statedeck.panels (name) VALUES ($1) ON CONFLICT (name) DO NOTHING RETURNING id)
            SELECT id FROM added UNION ALL SELECT id FROM statedeck.panels WHERE name = $1
            """, [panel])
        guard let key = rows.integer(0, 0) else {
            throw PostgresError(kind: .statement, message: "panel \(panel) was not saved")
        }
        keys[panel] = key
        return key
    }

    // MARK: Reading

    /// Runs `body` on the reading session, made anew when it was lost; a session the error broke
    /// is dropped.
    private func read<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(HistoryDatabaseError) -> T {
        try reading.withLock { slot throws(HistoryDatabaseError) in
            func attempt() throws(PostgresError) -> T {
                let session = try slot.connected { () throws(PostgresError) in try PostgresConnection(address.url) }
                do throws(PostgresError) {
                    return try body(session)
                } catch {
                    slot.failed(error)
                    throw error
                }
            }
            do throws(PostgresError) {
                // A session may be ended under it (the server restarted, a proxy dropped it) while
                // the server answers again: a read that finds its session broken is tried once
                // more on a new one.
                do throws(PostgresError) {
                    return try attempt()
                } catch where slot.session == nil && error.kind == .connection {
                    return try attempt()
                }
            } catch {
                var unreadable = HistoryDatabaseError.unreadable(error.message, from: "PostgreSQL at \(server)")
                if error.kind == .connection { unreadable.kind = .unreachable }
                throw unreadable
            }
        }
    }

    func load(following: Bool) throws(HistoryDatabaseError) -> StoredHistory {
        try read { session throws(PostgresError) in
            let watches = try session.query("SELECT id, started, watched_to, tallied_to FROM statedeck.watches")
            return StoredHistory(
                eventID: UInt64(try session.query("SELECT value FROM statedeck.meta WHERE key = 'last_event_id'")
                    .integer(0, 0) ?? 0),
                watches: (0..<watches.count).map { row in
                    HistoryWatch(id: watches.integer(row, 0) ?? 0, started: watches.integer(row, 1) ?? 0,
                                 watchedTo: watches.integer(row, 2) ?? 0, talliedTo: watches.integer(row, 3) ?? 0)
                },
                lastPosition: try session.query("SELECT coalesce(max(id), 0) FROM statedeck.changes").integer(0, 0) ?? 0,
                latest: try Self.latest(session),
                notifications: following ? try Self.notifications(session) : NotificationRecords(),
                maintenance: try Self.maintenance(session), incidents: try Self.incidents(session),
                lastFormPosition: try session.query("SELECT coalesce(max(id), 0) FROM statedeck.forms").integer(0, 0) ?? 0,
                forms: try Self.newestForms(session),
                furthestRetentionNow: try session.query("SELECT value FROM statedeck.meta WHERE key = 'retention_now'")
                    .integer(0, 0))
        }
    }

    /// The columns every form read selects, `f` being the form.
    private static let formColumns = """
        f.id, f.kind, f.subject, f.at, f.form, f.title, f.phase, f.health, f.summary, f.from_phase, f.from_health,
        f.from_summary
        """

    /// The forms `rows` hold, read from ``formColumns``.
    private static func forms(_ rows: PostgresRows) -> [MomentForm] {
        (0..<rows.count).compactMap { row in
            guard let part = MomentForm.Part(kind: rows.integer(row, 1) ?? -1, subject: rows[row, 2] ?? "") else { return nil }
            func headline(_ first: Int) -> MomentHeadline? {
                guard let phase = rows[row, first], let health = rows[row, first + 1] else { return nil }
                return MomentHeadline(title: rows[row, 5] ?? "", phase: phase, health: health, summary: rows[row, first + 2])
            }
            var form = MomentForm(part: part, at: rows.integer(row, 3) ?? 0, json: rows[row, 4] ?? "null",
                                  headline: headline(6), previous: headline(9))
            form.position = rows.integer(row, 0) ?? 0
            return form
        }
    }

    /// The newest form of each part at or before `at`: one look-up of the index a part.
    private static func forms(at: Int64, _ session: PostgresConnection) throws(PostgresError) -> [MomentForm] {
        forms(try session.query("""
            SELECT \(formColumns) FROM statedeck.form_parts p CROSS JOIN LATERAL (
                SELECT * FROM statedeck.forms WHERE kind = p.kind AND subject = p.subject AND at <= $1
                ORDER BY at DESC, id DESC LIMIT 1) f
            """, [String(at)]))
    }

    /// Each part's newest form by time (of two at one time, the one kept last), which the next
    /// is compared with, and the one kept last, whose headline the next names as before: after
    /// the wall clock was set back, two. Read once, at open: two looks at each part's forms.
    private static func newestForms(_ session: PostgresConnection) throws(PostgresError) -> [MomentForm] {
        forms(try session.query("""
            SELECT \(formColumns) FROM statedeck.form_parts p CROSS JOIN LATERAL (
                (SELECT * FROM statedeck.forms WHERE kind = p.kind AND subject = p.subject ORDER BY at DESC, id DESC LIMIT 1)
                UNION
                (SELECT * FROM statedeck.forms WHERE kind = p.kind AND subject = p.subject ORDER BY id DESC LIMIT 1)) f
            """))
    }

    func forms(at: Int64) throws(HistoryDatabaseError) -> [MomentForm] {
        try read { session throws(PostgresError) in try Self.forms(at: at, session) }
    }

    func oldestForm() throws(HistoryDatabaseError) -> Int64? {
        try read { session throws(PostgresError) in try session.query("SELECT min(at) FROM statedeck.forms").integer(0, 0) }
    }

    func formChanges(in range: FormChangeRange) throws(HistoryDatabaseError) -> [MomentForm] {
        let (past, direction) = range.order == .oldestFirst ? (">", "ASC") : ("<", "DESC")
        return try read { session throws(PostgresError) in
            Self.forms(try session.query("""
                SELECT \(Self.formColumns) FROM statedeck.forms f
                WHERE f.listed AND f.at >= $1 AND f.at <= $2 AND (f.at \(past) $3 OR (f.at = $3 AND f.id \(past) $4))
                ORDER BY f.at \(direction), f.id \(direction) LIMIT $5
                """, [String(range.from), String(range.to), String(range.cursor.at), String(range.cursor.position),
                      String(range.limit)]))
        }
    }

    func panelForm(of panel: String, atOrBefore at: Int64, changingHealthTo health: String?)
        throws(HistoryDatabaseError) -> MomentForm? {
        try read { session throws(PostgresError) in
            Self.forms(try session.query("""
                SELECT \(Self.formColumns) FROM statedeck.forms f
                WHERE f.kind = 0 AND f.subject = $1 AND f.at <= $2
                    AND ($3::text IS NULL OR (f.health = $3 AND (f.from_health IS NULL OR f.from_health <> f.health)))
                ORDER BY f.at DESC, f.id DESC LIMIT 1
                """, [panel, String(at), health])).first
        }
    }

    /// The incidents kept.
    private static func incidents(_ session: PostgresConnection) throws(PostgresError) -> [Incident] {
        let rows = try session.query("SELECT id, title, panels, opened, resolved, updates FROM statedeck.incidents")
        return (0..<rows.count).compactMap { row in
            guard let id = rows[row, 0], let title = rows[row, 1], let panels = rows[row, 2], let updates = rows[row, 5]
            else { return nil }
            return Incident(stored: Incident.StoredColumns(
                id: id, title: title, panels: panels, opened: rows.integer(row, 3) ?? 0, resolved: rows.integer(row, 4),
                updates: updates))
        }
    }

    /// The maintenance windows kept.
    private static func maintenance(_ session: PostgresConnection) throws(PostgresError) -> [MaintenanceSpan] {
        let rows = try session.query("SELECT id, start, until, reason, panels, source, schedule FROM statedeck.maintenance")
        return (0..<rows.count).compactMap { row in
            guard let id = rows[row, 0], let reason = rows[row, 3], let panels = rows[row, 4], let source = rows[row, 5]
            else { return nil }
            return MaintenanceSpan(stored: MaintenanceSpan.StoredColumns(
                id: id, from: rows.integer(row, 1) ?? 0, until: rows.integer(row, 2) ?? 0, reason: reason, panels: panels,
                source: source, schedule: rows[row, 6]))
        }
    }

    /// Every panel's `latest` row.
    private static func latest(_ session: PostgresConnection) throws(PostgresError) -> [LatestRow] {
        let rows = try session.query("""
            SELECT p.name, l.shown, l.info, l.error, l.stale, l.health, l.since, l.forced, l.last_run, l.maintenance,
                l.flap_changes, l.flapping_since
            FROM statedeck.latest l JOIN statedeck.panels p ON p.id = l.panel
            """)
        return (0..<rows.count).compactMap { row in
            guard let name = rows[row, 0] else { return nil }
            return LatestRow(
                panel: name,
                shown: ShownState.StoredColumns(shown: rows[row, 1], info: rows[row, 2], error: rows[row, 3],
                                                stale: rows.boolean(row, 4) ?? false),
                health: Health(rawValue: Int(rows.integer(row, 5) ?? 0)) ?? .unknown, since: rows.integer(row, 6) ?? 0,
                forced: rows.boolean(row, 7) ?? false, lastRun: rows.integer(row, 8),
                underMaintenance: rows.boolean(row, 9) ?? false,
                flapChanges: LatestRow.flapChanges(column: rows[row, 10]), flappingSince: rows.integer(row, 11))
        }
    }

    /// The outages and the deliveries not done.
    private static func notifications(_ session: PostgresConnection) throws(PostgresError) -> NotificationRecords {
        let outages = try session.query("SELECT key, watch FROM statedeck.notify_outages")
        let outbox = try session.query("SELECT notification FROM statedeck.notify_outbox")
        return NotificationRecords(
            outages: (0..<outages.count).compactMap { row in
                guard let key = outages[row, 0], let watch = outages[row, 1] else { return nil }
                return (key, watch)
            },
            deliveries: (0..<outbox.count).compactMap { outbox[$0, 0] })
    }

    func changes(of panel: String, in range: ChangeRange) throws(HistoryDatabaseError) -> [PositionedEntry] {
        try read { session throws(PostgresError) in
            let rows = try session.query("""
                SELECT id, at, state, duration_ms, error_kind, title, summary, detail, debug FROM statedeck.changes
                WHERE panel = (SELECT id FROM statedeck.panels WHERE name = $1) AND at >= $2 AND at <= $3
                    AND (at < $4 OR (at = $4 AND id < $5))
                ORDER BY at DESC, id DESC LIMIT $6
                """, [panel, String(range.from), String(range.to), String(range.cursor.at),
                      String(range.cursor.position), String(range.limit)])
            return (0..<rows.count).map { row in
                (HistoryEntry(at: rows.integer(row, 1) ?? 0, stateCode: rows.integer(row, 2) ?? 0,
                              durationMs: rows.integer(row, 3), errorKind: rows[row, 4], title: rows[row, 5],
                              summary: rows[row, 6], detail: rows[row, 7], debug: rows.boolean(row, 8) ?? false),
                 rows.integer(row, 0) ?? 0)
            }
        }
    }

    func tallies(of panel: String, _ resolution: Resolution, from: Int64) throws(HistoryDatabaseError) -> [TallyRow] {
        try read { session throws(PostgresError) in
            let rows = try session.query("""
                SELECT start, up_ms, down_ms, loading_ms, loads, failures, min_ms, max_ms, total_ms, durations, watch,
                    counted_to, maintenance_ms
                FROM statedeck.tallies
                WHERE panel = (SELECT id FROM statedeck.panels WHERE name = $1) AND resolution = $2 AND start >= $3
                ORDER BY start
                """, [panel, String(resolution.rawValue), String(from)])
            return (0..<rows.count).map { row in
                TallyRow(panel: panel, resolution: resolution, start: rows.integer(row, 0) ?? 0,
                         watch: rows.integer(row, 10) ?? 0,
                         tally: Tally(upMs: rows.integer(row, 1) ?? 0, downMs: rows.integer(row, 2) ?? 0,
                                      loadingMs: rows.integer(row, 3) ?? 0, maintenanceMs: rows.integer(row, 12) ?? 0,
                                      loads: Int(rows.integer(row, 4) ?? 0),
                                      failures: Int(rows.integer(row, 5) ?? 0), minMs: rows.integer(row, 6),
                                      maxMs: rows.integer(row, 7), totalMs: rows.integer(row, 8) ?? 0,
                                      durations: ByteaText.decode(rows[row, 9] ?? "")),
                         countedTo: rows.integer(row, 11))
            }
        }
    }

    func auditEntries(_ query: AuditQuery) throws(HistoryDatabaseError) -> [AuditEntry] {
        try read { session throws(PostgresError) in
            let rows = try session.query("""
                SELECT id, at, actor, role, action, panel, subject, detail FROM statedeck.audit
                WHERE at >= $1 AND at <= $2 AND ($3::text IS NULL OR panel = $3)
                ORDER BY at DESC, id DESC LIMIT $4
                """, [String(query.range.lowerBound), String(query.range.upperBound), query.panel, String(query.limit)])
            return (0..<rows.count).compactMap { row in
                AuditEntry(stored: rows[row, 0] ?? "", at: rows.integer(row, 1) ?? 0, actor: rows[row, 2] ?? "",
                           role: rows[row, 3] ?? "", action: rows[row, 4] ?? "", panel: rows[row, 5], subject: rows[row, 6] ?? "",
                           detail: rows[row, 7] ?? "")
            }
        }
    }

    func newestEntries(of panel: String, limit: Int) throws(HistoryDatabaseError) -> [ViewStateHistory.Entry] {
        try read { session throws(PostgresError) in
            let rows = try session.query("""
                SELECT at, state FROM statedeck.changes WHERE panel = (SELECT id FROM statedeck.panels WHERE name = $1)
                ORDER BY at DESC, id DESC LIMIT $2
                """, [panel, String(limit)])
            return (0..<rows.count).map { row in
                ViewStateHistory.Entry(state: HistoryEntry.state(code: rows.integer(row, 1) ?? 0),
                                       at: Date(millisecondsSince1970: rows.integer(row, 0) ?? 0))
            }
        }
    }
}
