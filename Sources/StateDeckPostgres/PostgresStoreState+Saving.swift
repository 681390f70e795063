import FoundationEssentials
import Postgres
import StateDeck
import StateDeckHistory
import StateDeckNotifications

extension PostgresStoreState {
    /// Rows sent in one `INSERT`: fewer round trips than one a row, within PostgreSQL's 65,535
    /// parameters a statement.
    static let rowsPerInsert = 500

    /// Writes everything unsaved in one transaction; a failure forgets the panel ids it made,
    /// and a session it broke, for the writer to make a new one.
    mutating func commitUnsaved(eventID: UInt64?, expiringAt now: Int64?) throws(PostgresError) {
        guard let session else { throw PostgresError(kind: .connection, message: connectionFailure) }
        let knownKeys = panelKeys
        do {
            try session.transaction { () throws(PostgresError) in
                try writeUnsaved(session, eventID: eventID)
                if let now { try deleteExpired(session, now: now) }
            }
        } catch {
            panelKeys = knownKeys
            failed(error)
            throw error
        }
    }

    mutating func committed() {
        notifications.markSaved()
    }

    /// The card while the server cannot be reached, or refuses the save.
    func trouble(after error: PostgresError) -> PanelError {
        session == nil
            ? history.troubleCard(.unreachable, title: "Can't reach PostgreSQL",
                                  notSaved: ": PostgreSQL at \(server) cannot be reached", resumesOnce: "it is back",
                                  detail: connectionFailure.isEmpty ? nil : connectionFailure)
            : history.troubleCard(.unknown, title: "Can't save history", notSaved: " to PostgreSQL at \(server)",
                                  resumesOnce: "the server takes it again", detail: error.message)
    }

    /// Drops the session when `error` broke it, so that the writer makes a new one.
    mutating func failed(_ error: PostgresError) {
        guard error.kind == .connection || session?.isConnected == false else { return }
        session = nil
        connectionFailure = error.message
        nextReconnect = .now
    }

    /// Writes the ledger's changes in a transaction of their own, now rather than with the next
    /// batch. A failure leaves them to the writer's next save, which reports it as `trouble`.
    mutating func saveNotifications() {
        guard notifications.hasUnsaved, let session else { return }
        do {
            try session.transaction { () throws(PostgresError) in try writeNotifications(session) }
            notifications.markSaved()
        } catch {
            failed(error)
        }
    }

    private mutating func writeUnsaved(_ session: PostgresConnection, eventID: UInt64?) throws(PostgresError) {
        if !history.unsavedChanges.isEmpty {
            // Another process (a leader before this one) may have saved changes since this store read them.
            history.placeWaiting(after: try session.query("SELECT coalesce(max(id), 0) FROM statedeck.changes")
                .integer(0, 0) ?? 0)
        }
        var changes: [[String?]] = []
        changes.reserveCapacity(history.unsavedChanges.count)
        for (panel, entry, position) in history.unsavedChanges {
            changes.append([
                String(position), String(try key(of: panel, session)), String(entry.at.millisecondsSince1970),
                String(entry.stateCode),
                entry.durationMs.map(String.init), entry.errorKind?.rawValue, entry.title, entry.summary, entry.detail,
                entry.debug ? "true" : "false",
            ])
        }
        try Self.insert(session, "INSERT INTO statedeck.changes (id, panel, at, state, duration_ms, error_kind, title, summary, detail, debug)",
                        changes)
        var tallies: [[String?]] = []
        for row in history.unsavedRows {
            let tally = row.tally
            tallies.append([
                String(try key(of: row.panel, session)), String(row.resolution.rawValue), String(row.start),
                String(row.watch), String(tally.upMs), String(tally.downMs), String(tally.loadingMs), String(tally.loads),
                String(tally.failures), tally.minMs.map(String.init), tally.maxMs.map(String.init), String(tally.totalMs),
                ByteaText.encode(tally.durations.encoded),
            ])
        }
        try Self.insert(session, """
            INSERT INTO statedeck.tallies (panel, resolution, start, watch, up_ms, down_ms, loading_ms, loads, failures,
                min_ms, max_ms, total_ms, durations)
            """, tallies, then: """
            ON CONFLICT (panel, resolution, start, watch) DO UPDATE SET up_ms = EXCLUDED.up_ms, down_ms = EXCLUDED.down_ms,
                loading_ms = EXCLUDED.loading_ms, loads = EXCLUDED.loads, failures = EXCLUDED.failures,
                min_ms = EXCLUDED.min_ms, max_ms = EXCLUDED.max_ms, total_ms = EXCLUDED.total_ms,
                durations = EXCLUDED.durations
            """)
        // Health changes only with a recorded change, so the panels changed are all there is to write.
        var latest: [[String?]] = []
        for panel in history.unsavedShown {
            let row = history.latest(of: panel)
            latest.append([
                String(try key(of: panel, session)), row.shown.shown, row.shown.info, row.shown.error,
                row.shown.stale ? "true" : "false", String(row.health.rawValue), String(row.since),
            ])
        }
        try Self.insert(session, "INSERT INTO statedeck.latest (panel, shown, info, error, stale, health, since)",
                        latest, then: """
            ON CONFLICT (panel) DO UPDATE SET shown = EXCLUDED.shown, info = EXCLUDED.info, error = EXCLUDED.error,
                stale = EXCLUDED.stale, health = EXCLUDED.health, since = EXCLUDED.since
            """)
        try Self.insert(session, "INSERT INTO statedeck.watches (id, started, watched_to, tallied_to)",
                        history.unsavedWatches.map {
                            [String($0.id), String($0.started), String($0.watchedTo), String($0.talliedTo)]
                        },
                        then: "ON CONFLICT (id) DO UPDATE SET watched_to = EXCLUDED.watched_to, tallied_to = EXCLUDED.tallied_to")
        try writeNotifications(session)
        if let eventID, eventID != history.storedEventID {
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

    /// Writes the outages and deliveries changed since the last save, inside the caller's transaction.
    private func writeNotifications(_ session: PostgresConnection) throws(PostgresError) {
        for write in notifications.unsavedWrites {
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

    /// Deletes what retention no longer keeps.
    private func deleteExpired(_ session: PostgresConnection, now: Int64) throws(PostgresError) {
        let retention = history.retention
        try session.query("DELETE FROM statedeck.changes WHERE at < $1", [String(retention.changesCutoff(now: now))])
        for resolution in Resolution.allCases {
            try session.query("DELETE FROM statedeck.tallies WHERE resolution = $1 AND start < $2",
                              [String(resolution.rawValue), String(retention.cutoff(of: resolution, now: now))])
        }
        try session.query("DELETE FROM statedeck.watches WHERE watched_to < $1 AND id <> $2",
                          [String(retention.cutoff(of: .day, now: now)), String(history.aggregator.watch)])
    }

    /// The id of `panel` in `statedeck.panels`, added on first use.
    mutating func key(of panel: String, _ session: PostgresConnection) throws(PostgresError) -> Int64 {
        if let key = panelKeys[panel] { return key }
        let rows = try session.query("""
            WITH added AS (INSERT INTO statedeck.panels (name) VALUES ($1) ON CONFLICT (name) DO NOTHING RETURNING id)
            SELECT id FROM added UNION ALL SELECT id FROM statedeck.panels WHERE name = $1
            """, [panel])
        guard let key = rows.integer(0, 0) else {
            throw PostgresError(kind: .statement, message: "panel \(panel) was not saved")
        }
        panelKeys[panel] = key
        return key
    }
}
