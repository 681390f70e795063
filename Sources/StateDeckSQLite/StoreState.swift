import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// What the store's lock guards: the connection, the tallies of time as it passes, the
/// notifications' ledger, and what waits to be saved.
struct StoreState: HistoryStoreState, RecordKeepingState {
    let database: Database
    /// The tallies, what each panel shows and what waits to be saved.
    var history: HistoryState
    /// Each panel's row id in `panels`, once known in a saved transaction.
    var panelKeys: [String: Int64] = [:]
    /// The notifications' ledger, kept with the history.
    var notifications = NotificationRecords()
    /// The history's folder, as the trouble card names it.
    let folder: String
    private var statements: [String: Statement] = [:]

    init(database: Database, folder: String, retention: HistoryRetention, now: Date) throws(SQLiteError) {
        self.database = database
        self.folder = folder
        let storedEventID = try database.integer("SELECT value FROM meta WHERE key = 'last_event_id'") ?? 0
        history = HistoryState(retention: retention, storedEventID: UInt64(storedEventID))
        try resume(now: now.millisecondsSince1970)
        try readNotifications()
    }

    /// The statement of `sql`, prepared once.
    mutating func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql, persistent: true)
        statements[sql] = statement
        return statement
    }

    /// Picks up every panel's health and open hour and day where the file left them.
    private mutating func resume(now: Int64) throws(SQLiteError) {
        let names = try statement("SELECT id, name FROM panels")
        try names.bind()
        defer { names.reset() }
        while try names.step() {
            if let name = names.text(1) { panelKeys[name] = names.integer(0) }
        }
        let rows = try statement("SELECT p.id, p.name, l.shown, l.info, l.error, l.stale, l.health, l.since FROM latest l JOIN panels p ON p.id = l.panel")
        try rows.bind()
        defer { rows.reset() }
        var resumed: [(key: Int64, name: String, shown: ShownState, health: Health, since: Int64)] = []
        while try rows.step() {
            let key = rows.integer(0)
            guard let name = rows.text(1) else { continue }
            panelKeys[name] = key
            let shown = ShownState(stored: ShownState.StoredColumns(
                shown: rows.text(2), info: rows.text(3), error: rows.text(4), stale: rows.integer(5) != 0))
            resumed.append((key, name, shown, Health(rawValue: Int(rows.integer(6))) ?? .unknown, rows.integer(7)))
        }
        for panel in resumed {
            let open = try HistoryState.openTallies(now: now) { resolution, from throws(SQLiteError) in
                try storedRows(panel: panel.key, name: panel.name, resolution, from: from)
            }
            history.resume(panel.name, shown: panel.shown, health: panel.health, since: panel.since, now: now, open: open)
        }
    }

    /// `panel`'s saved tallies of `resolution` starting at or after `from`, oldest first.
    mutating func storedRows(panel key: Int64, name: String, _ resolution: Resolution, from: Int64) throws(SQLiteError) -> [TallyRow] {
        let select = try statement("""
            SELECT start, up_ms, down_ms, loading_ms, loads, failures, min_ms, max_ms, total_ms, durations
            FROM tallies WHERE panel = ? AND resolution = ? AND start >= ? ORDER BY start
            """)
        try select.bind(.integer(key), .integer(Int64(resolution.rawValue)), .integer(from))
        defer { select.reset() }
        var rows: [TallyRow] = []
        while try select.step() {
            let tally = Tally(
                upMs: select.integer(1), downMs: select.integer(2), loadingMs: select.integer(3),
                loads: Int(select.integer(4)), failures: Int(select.integer(5)), minMs: select.optionalInteger(6),
                maxMs: select.optionalInteger(7), totalMs: select.integer(8), durations: select.blob(9))
            rows.append(TallyRow(panel: name, resolution: resolution, start: select.integer(0), tally: tally))
        }
        return rows
    }
}
