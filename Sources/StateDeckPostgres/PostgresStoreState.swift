import FoundationEssentials
import Postgres
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// What the PostgreSQL store's lock guards: the session (nil while the server cannot be
/// reached), the tallies of time as it passes, the notifications' ledger, and what waits to be saved.
struct PostgresStoreState: HistoryStoreState, RecordKeepingState {
    var session: PostgresConnection?
    /// The tallies, what each panel shows and what waits to be saved.
    var history: HistoryState
    var notifications = NotificationRecords()
    /// Each panel's id in `statedeck.panels`, once known in a saved transaction.
    var panelKeys: [String: Int64] = [:]
    /// The server, as the trouble card names it.
    let server: String
    /// Why the session was lost or the last attempt to make one failed.
    var connectionFailure = ""
    /// Failed attempts to reconnect in a row, and when the next may be made.
    var reconnectAttempts = 0
    var nextReconnect = ContinuousClock.now

    /// Reads everything the store keeps in memory from the database of `session`; not `running`
    /// (a process that does not run the deck), only what reads need: no panel is followed, so
    /// answers come from what is stored.
    init(session: PostgresConnection, server: String, retention: HistoryRetention, now: Date,
         running: Bool) throws(PostgresError) {
        self.session = session
        self.server = server
        let storedEventID = try session.query("SELECT value FROM statedeck.meta WHERE key = 'last_event_id'")
            .integer(0, 0) ?? 0
        let watches = try session.query("SELECT id, started, watched_to, tallied_to FROM statedeck.watches")
        let lastPosition = try session.query("SELECT coalesce(max(id), 0) FROM statedeck.changes").integer(0, 0) ?? 0
        history = HistoryState(
            retention: retention, storedEventID: UInt64(storedEventID),
            watches: (0..<watches.count).map { row in
                HistoryWatch(id: watches.integer(row, 0) ?? 0, started: watches.integer(row, 1) ?? 0,
                             watchedTo: watches.integer(row, 2) ?? 0, talliedTo: watches.integer(row, 3) ?? 0)
            },
            lastPosition: lastPosition, now: now.millisecondsSince1970)
        try readPanelKeys(session)
        guard running else { return }
        try resume(session, now: now.millisecondsSince1970)
        let keys = panelKeys
        try history.finishEndedWatches(panels: Array(keys.keys)) { panel, watch, resolution, start throws(PostgresError) in
            let rows = try session.query("""
                SELECT up_ms, down_ms, loading_ms, loads, failures, min_ms, max_ms, total_ms, durations
                FROM statedeck.tallies WHERE panel = $1 AND resolution = $2 AND start = $3 AND watch = $4
                """, [String(keys[panel] ?? 0), String(resolution.rawValue), String(start), String(watch)])
            return rows.count > 0 ? Self.tally(rows, 0, from: 0) : nil
        }
        notifications = try Self.readNotifications(session)
    }

    /// Picks up every panel's health where the database left them.
    private mutating func resume(_ session: PostgresConnection, now: Int64) throws(PostgresError) {
        let rows = try session.query("""
            SELECT p.name, l.shown, l.info, l.error, l.stale, l.health, l.since
            FROM statedeck.latest l JOIN statedeck.panels p ON p.id = l.panel
            """)
        for row in 0..<rows.count {
            guard let name = rows[row, 0] else { continue }
            let shown = ShownState(stored: ShownState.StoredColumns(
                shown: rows[row, 1], info: rows[row, 2], error: rows[row, 3], stale: rows.boolean(row, 4) ?? false))
            history.resume(name, shown: shown, health: Health(rawValue: Int(rows.integer(row, 5) ?? 0)) ?? .unknown,
                           since: rows.integer(row, 6) ?? 0, now: now)
        }
    }

    /// Learns every panel's id: at open, and again after reconnecting, when the ids known may be
    /// gone (a server restored from a backup, or one that lost its last commits in a crash).
    mutating func readPanelKeys(_ session: PostgresConnection) throws(PostgresError) {
        let names = try session.query("SELECT id, name FROM statedeck.panels")
        panelKeys = [:]
        for row in 0..<names.count {
            if let key = names.integer(row, 0), let name = names[row, 1] { panelKeys[name] = key }
        }
    }

    /// Reads the outages and the deliveries not done.
    private static func readNotifications(_ session: PostgresConnection) throws(PostgresError) -> NotificationRecords {
        let outages = try session.query("SELECT key, watch FROM statedeck.notify_outages")
        let outbox = try session.query("SELECT notification FROM statedeck.notify_outbox")
        return NotificationRecords(
            outages: (0..<outages.count).compactMap { row in
                guard let key = outages[row, 0], let watch = outages[row, 1] else { return nil }
                return (key, watch)
            },
            deliveries: (0..<outbox.count).compactMap { outbox[$0, 0] })
    }

    /// `panel`'s saved tallies of `resolution` starting at or after `from`, oldest first.
    static func storedRows(_ session: PostgresConnection, panel key: Int64, name: String, _ resolution: Resolution,
                           from: Int64) throws(PostgresError) -> [TallyRow] {
        let rows = try session.query("""
            SELECT start, up_ms, down_ms, loading_ms, loads, failures, min_ms, max_ms, total_ms, durations, watch
            FROM statedeck.tallies WHERE panel = $1 AND resolution = $2 AND start >= $3 ORDER BY start
            """, [String(key), String(resolution.rawValue), String(from)])
        return (0..<rows.count).map { row in
            TallyRow(panel: name, resolution: resolution, start: rows.integer(row, 0) ?? 0,
                     watch: rows.integer(row, 10) ?? 0, tally: tally(rows, row, from: 1))
        }
    }

    /// The tally in `row` of `rows`, its columns from `first` in the table's order.
    private static func tally(_ rows: PostgresRows, _ row: Int, from first: Int) -> Tally {
        Tally(upMs: rows.integer(row, first) ?? 0, downMs: rows.integer(row, first + 1) ?? 0,
              loadingMs: rows.integer(row, first + 2) ?? 0, loads: Int(rows.integer(row, first + 3) ?? 0),
              failures: Int(rows.integer(row, first + 4) ?? 0), minMs: rows.integer(row, first + 5),
              maxMs: rows.integer(row, first + 6), totalMs: rows.integer(row, first + 7) ?? 0,
              durations: ByteaText.decode(rows[row, first + 8] ?? ""))
    }
}
