import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory

/// What the store's lock guards: the connection, the tallies of time as it passes, the
/// notifications' ledger, and what waits to be saved.
struct StoreState {
    let database: Database
    let retention: HistoryRetention
    var aggregator = HealthAggregator()
    /// Each panel's row id in `panels`, once known in a saved transaction.
    var panelKeys: [String: Int64] = [:]
    /// What each panel shows, as far as the history tells.
    var shown: [String: ShownState] = [:]
    var unsavedChanges: [(panel: String, entry: HistoryEntry)] = []
    var unsavedRows: [RowKey: TallyRow] = [:]
    var unsavedShown: Set<String> = []
    /// Changes dropped while saving failed for long.
    var dropped = 0
    var trouble: PanelError?
    var storedEventID: UInt64 = 0
    /// The notifications' ledger, kept with the history.
    var notifications = NotificationRecords()
    /// The hour retention last ran in.
    var retainedHour: Int64 = 0
    private var statements: [String: Statement] = [:]

    struct RowKey: Hashable {
        let panel: String
        let resolution: Resolution
        let start: Int64
    }

    init(database: Database, retention: HistoryRetention, now: Date) throws(SQLiteError) {
        self.database = database
        self.retention = retention
        storedEventID = UInt64(try database.integer("SELECT value FROM meta WHERE key = 'last_event_id'") ?? 0)
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
        var resumed: [(key: Int64, name: String, health: Health, since: Int64)] = []
        while try rows.step() {
            let key = rows.integer(0)
            guard let name = rows.text(1) else { continue }
            panelKeys[name] = key
            shown[name] = ShownState(stored: rows)
            resumed.append((key, name, Health(rawValue: Int(rows.integer(6))) ?? .unknown, rows.integer(7)))
        }
        let hourStart = Resolution.hour.start(of: now)
        let dayStart = Resolution.day.start(of: now)
        for panel in resumed {
            let hour = try storedTally(panel: panel.key, .minute, from: hourStart, to: now)
            var day = try storedTally(panel: panel.key, .hour, from: dayStart, to: hourStart)
            day.merge(hour)
            aggregator.resume(panel.name, health: panel.health, since: panel.since, now: now, hour: hour, day: day)
        }
    }

    /// The sum of a panel's saved tallies of `resolution` starting in `from..<to`.
    mutating func storedTally(panel key: Int64, _ resolution: Resolution, from: Int64, to: Int64) throws(SQLiteError) -> Tally {
        var total = Tally()
        for row in try storedRows(panel: key, name: "", resolution, from: from) where row.start < to {
            total.merge(row.tally)
        }
        return total
    }

    mutating func storedRows(panel key: Int64, name: String, _ resolution: Resolution, from: Int64) throws(SQLiteError) -> [TallyRow] {
        let select = try statement("""
            SELECT start, up_ms, down_ms, loading_ms, loads, failures, min_ms, max_ms, total_ms, durations
            FROM tallies WHERE panel = ? AND resolution = ? AND start >= ? ORDER BY start
            """)
        try select.bind(.integer(key), .integer(Int64(resolution.rawValue)), .integer(from))
        defer { select.reset() }
        var rows: [TallyRow] = []
        while try select.step() {
            var tally = Tally()
            tally.upMs = select.integer(1)
            tally.downMs = select.integer(2)
            tally.loadingMs = select.integer(3)
            tally.loads = Int(select.integer(4))
            tally.failures = Int(select.integer(5))
            tally.minMs = select.optionalInteger(6)
            tally.maxMs = select.optionalInteger(7)
            tally.totalMs = select.integer(8)
            tally.durations = DurationHistogram(encoded: select.blob(9)) ?? DurationHistogram()
            rows.append(TallyRow(panel: name, resolution: resolution, start: select.integer(0), tally: tally))
        }
        return rows
    }
}
