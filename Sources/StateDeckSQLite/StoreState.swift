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

/// What the store's lock guards: the connection, the tallies of time as it passes, the
/// notifications' ledger, and what waits to be saved.
struct StoreState: HistoryStoreState, RecordKeepingState {
    /// The connection to the file; a new one when the file was deleted while serving.
    private(set) var database: Database
    /// The tallies, what each panel shows and what waits to be saved.
    var history: HistoryState
    /// Each panel's row id in `panels`, once known in a saved transaction.
    var panelKeys: [String: Int64] = [:]
    /// The notifications' ledger, kept with the history.
    var notifications = NotificationRecords()
    /// The history's file, as the trouble card names it.
    let file: HistoryFile
    /// The folder's lock, taken anew when the folder was deleted with the file.
    private var lock: DataFolderLock
    /// The file the connection has open, so that a save notices when the path names another.
    private var openFile: FileIdentity
    /// When the file was found deleted or replaced, while no new one is in its place.
    private var fileLostAt: Date?
    /// The store's wall clock.
    private let clock: @Sendable () -> Date
    private var statements: [String: Statement] = [:]

    /// The state of `database`, open on `openFile`, which is `file`.
    init(file: HistoryFile, database: Database, openFile: FileIdentity, lock: DataFolderLock, retention: HistoryRetention,
         clock: @escaping @Sendable () -> Date) throws(SQLiteError) {
        self.file = file
        self.database = database
        self.openFile = openFile
        self.lock = lock
        self.clock = clock
        let storedEventID = try database.integer("SELECT value FROM meta WHERE key = 'last_event_id'") ?? 0
        let now = clock().millisecondsSince1970
        history = HistoryState(retention: retention, storedEventID: UInt64(storedEventID),
                               watches: try Self.watches(in: database),
                               lastPosition: try database.integer("SELECT max(rowid) FROM changes") ?? 0, now: now)
        try resume(now: now)
        var finished = history
        try finished.finishEndedWatches(panels: Array(panelKeys.keys)) { panel, watch, resolution, start throws(SQLiteError) in
            try storedTally(panel: panelKeys[panel] ?? 0, watch: watch, resolution, start: start)
        }
        history = finished
        try readNotifications()
    }

    /// The statement of `sql`, prepared once.
    mutating func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql, persistent: true)
        statements[sql] = statement
        return statement
    }

    /// Keeps saves going to the file the history's path names (one `lstat` a save): when the
    /// file open was deleted, makes a new one there, into which everything in memory is saved
    /// again, and says so for the rest of the run; when another file took its place, saves
    /// nothing and leaves that file alone.
    mutating func followFileAtPath() throws(StoreSaveError) {
        let found = FileIdentity.at(file.path)
        switch found {
        case .unknown: return
        case .file(let identity) where identity == openFile: return
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
        history.standingNotice = PanelError(
            .unknown, title: "History started anew",
            message: "\(HistoryFile.name) was deleted while serving (at \(Self.clockTime(lostAt))); StateDeck started a "
                + "new one and saves there; the changes and tallies it held before are gone.",
            detail: file.path)
    }

    /// Opens a new file at the path, where there is none, and has the panels' `latest` rows and
    /// the ledger saved into it again with the next transaction.
    private mutating func startNewFile() throws(HistoryOpenError) {
        if !lock.isInPlace { lock = try DataFolderLock(folder: file.folder) }
        // Any left are the deleted file's (the folder is locked): SQLite would read the new file
        // with its log.
        file.removeCompanions()
        let opened: (database: Database, file: FileIdentity)
        do {
            opened = try file.open()
        } catch {
            // Else the next save would take a half-made file for another program's.
            file.remove()
            throw error
        }
        statements = [:]
        database = opened.database
        openFile = opened.file
        panelKeys = [:]
        history.markLatestUnsaved()
        notifications.markAllUnsaved()
    }

    /// `date` as the hour and minute it was here ("10:42").
    static func clockTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return twoDigits(parts.tm_hour) + ":" + twoDigits(parts.tm_min)
    }

    /// The watches the file keeps.
    private static func watches(in database: Database) throws(SQLiteError) -> [HistoryWatch] {
        let select = try database.prepare("SELECT id, started, watched_to, tallied_to FROM watches")
        try select.bind()
        var watches: [HistoryWatch] = []
        while try select.step() {
            watches.append(HistoryWatch(id: select.integer(0), started: select.integer(1), watchedTo: select.integer(2),
                                        talliedTo: select.integer(3)))
        }
        return watches
    }

    /// Picks up every panel's health where the file left them.
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
        while try rows.step() {
            guard let name = rows.text(1) else { continue }
            panelKeys[name] = rows.integer(0)
            let shown = ShownState(stored: ShownState.StoredColumns(
                shown: rows.text(2), info: rows.text(3), error: rows.text(4), stale: rows.integer(5) != 0))
            history.resume(name, shown: shown, health: Health(rawValue: Int(rows.integer(6))) ?? .unknown,
                           since: rows.integer(7), now: now)
        }
    }

    /// `panel`'s saved tallies of `resolution` starting at or after `from`, oldest first.
    mutating func storedRows(panel key: Int64, name: String, _ resolution: Resolution, from: Int64) throws(SQLiteError) -> [TallyRow] {
        let select = try statement("""
            SELECT start, up_ms, down_ms, loading_ms, loads, failures, min_ms, max_ms, total_ms, durations, watch
            FROM tallies WHERE panel = ? AND resolution = ? AND start >= ? ORDER BY start
            """)
        try select.bind(.integer(key), .integer(Int64(resolution.rawValue)), .integer(from))
        defer { select.reset() }
        var rows: [TallyRow] = []
        while try select.step() {
            rows.append(TallyRow(panel: name, resolution: resolution, start: select.integer(0), watch: select.integer(10),
                                 tally: Self.tally(select, from: 1)))
        }
        return rows
    }

    /// The saved tally of one bucket of `watch`.
    private mutating func storedTally(panel key: Int64, watch: Int64, _ resolution: Resolution,
                                      start: Int64) throws(SQLiteError) -> Tally? {
        let select = try statement("""
            SELECT up_ms, down_ms, loading_ms, loads, failures, min_ms, max_ms, total_ms, durations
            FROM tallies WHERE panel = ? AND resolution = ? AND start = ? AND watch = ?
            """)
        try select.bind(.integer(key), .integer(Int64(resolution.rawValue)), .integer(start), .integer(watch))
        defer { select.reset() }
        return try select.step() ? Self.tally(select, from: 0) : nil
    }

    /// The tally in the row `select` is on, its columns from `first` in the table's order.
    private static func tally(_ select: Statement, from first: Int32) -> Tally {
        Tally(upMs: select.integer(first), downMs: select.integer(first + 1), loadingMs: select.integer(first + 2),
              loads: Int(select.integer(first + 3)), failures: Int(select.integer(first + 4)),
              minMs: select.optionalInteger(first + 5), maxMs: select.optionalInteger(first + 6),
              totalMs: select.integer(first + 7), durations: select.blob(first + 8))
    }
}
