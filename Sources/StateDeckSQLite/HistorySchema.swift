import SQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The history file's layout, its versions and the checks made before SQLite writes anything.
enum HistorySchema {
    /// `PRAGMA application_id`: "SDck", so the file says whose it is.
    static let applicationID: Int32 = 0x5344_636B

    /// Each version's statements, in order: version `n` is reached by running the first `n`.
    /// A version once released never changes; a new one is appended.
    static let migrations: [String] = [
        """
        CREATE TABLE panels (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE changes (
            panel INTEGER NOT NULL, at INTEGER NOT NULL, state INTEGER NOT NULL, duration_ms INTEGER,
            error_kind TEXT, title TEXT, summary TEXT, detail TEXT, debug INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX changes_by_panel ON changes (panel, at);
        CREATE TABLE tallies (
            panel INTEGER NOT NULL, resolution INTEGER NOT NULL, start INTEGER NOT NULL,
            up_ms INTEGER NOT NULL, down_ms INTEGER NOT NULL, loading_ms INTEGER NOT NULL,
            loads INTEGER NOT NULL, failures INTEGER NOT NULL, min_ms INTEGER, max_ms INTEGER,
            total_ms INTEGER NOT NULL, durations BLOB NOT NULL,
            PRIMARY KEY (panel, resolution, start)) WITHOUT ROWID;
        CREATE TABLE latest (
            panel INTEGER PRIMARY KEY, shown TEXT, info TEXT, error TEXT, stale INTEGER NOT NULL,
            health INTEGER NOT NULL, since INTEGER NOT NULL);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        """,
        // The notifications' ledger: each notify entry's outage (by "panel#index") and the
        // deliveries decided and not done, each a JSON document.
        """
        CREATE TABLE notify_outages (key TEXT PRIMARY KEY, watch TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE notify_outbox (
            id TEXT PRIMARY KEY, key TEXT NOT NULL, at INTEGER NOT NULL, notification TEXT NOT NULL) WITHOUT ROWID;
        """,
        // Watches: the stretches StateDeck counted time without a break (its hours and days saved up
        // to tallied_to). Each tally is its watch's, so that a watch never writes over another's;
        // rows kept before are watch 0.
        """
        CREATE TABLE watches (
            id INTEGER PRIMARY KEY, started INTEGER NOT NULL, watched_to INTEGER NOT NULL, tallied_to INTEGER NOT NULL);
        CREATE TABLE tallies_by_watch (
            panel INTEGER NOT NULL, resolution INTEGER NOT NULL, start INTEGER NOT NULL, watch INTEGER NOT NULL,
            up_ms INTEGER NOT NULL, down_ms INTEGER NOT NULL, loading_ms INTEGER NOT NULL,
            loads INTEGER NOT NULL, failures INTEGER NOT NULL, min_ms INTEGER, max_ms INTEGER,
            total_ms INTEGER NOT NULL, durations BLOB NOT NULL,
            PRIMARY KEY (panel, resolution, start, watch)) WITHOUT ROWID;
        INSERT INTO tallies_by_watch SELECT panel, resolution, start, 0, up_ms, down_ms, loading_ms, loads, failures,
            min_ms, max_ms, total_ms, durations FROM tallies;
        DROP TABLE tallies;
        ALTER TABLE tallies_by_watch RENAME TO tallies;
        """,
        // A minute saved while open keeps the time it was counted to, and `latest` whether a debug
        // command holds the panel: a store opening after a crash counts the time since in the
        // health kept, so open minutes need saving only when they gain a load or a change.
        """
        ALTER TABLE tallies ADD COLUMN counted_to INTEGER;
        ALTER TABLE latest ADD COLUMN forced INTEGER NOT NULL DEFAULT 0;
        """,
        // When a heartbeat's newest run ended: its next is due after it, across a restart.
        """
        ALTER TABLE latest ADD COLUMN last_run INTEGER;
        """,
        // Maintenance: time under a window counts apart from up and down, `latest` says whether a
        // window covers the panel (a crash then credits it maintenance), and the windows started
        // through the API or ended early are kept, so a restart inside one continues it.
        """
        ALTER TABLE tallies ADD COLUMN maintenance_ms INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE latest ADD COLUMN maintenance INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE maintenance (
            id TEXT NOT NULL, start INTEGER NOT NULL, until INTEGER NOT NULL, reason TEXT NOT NULL,
            panels TEXT NOT NULL, source TEXT NOT NULL, schedule TEXT,
            PRIMARY KEY (id, start)) WITHOUT ROWID;
        """,
        // Incidents and announcements, each one row with its updates as JSON: written whole at
        // each update, so a restart or the next leader takes them up as they were answered.
        """
        CREATE TABLE incidents (
            id TEXT PRIMARY KEY, title TEXT NOT NULL, panels TEXT NOT NULL, opened INTEGER NOT NULL,
            resolved INTEGER, updates TEXT NOT NULL) WITHOUT ROWID;
        """,
        // The audit: every action a person took, signed with their name and role, kept as long as
        // the days' tallies.
        """
        CREATE TABLE audit (
            id TEXT PRIMARY KEY, at INTEGER NOT NULL, actor TEXT NOT NULL, role TEXT NOT NULL, action TEXT NOT NULL,
            panel TEXT, subject TEXT NOT NULL, detail TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX audit_by_time ON audit (at);
        CREATE INDEX audit_by_panel ON audit (panel, at);
        """,
        // Moments: each form a part of the state document took (a panel's compact form, the deck's
        // notice, maintenance, incidents), kept when it differs from the part's newest and as long
        // as changes, with a panel's headline before and after (what `GET /api/changes` lists);
        // `form_parts` names every part, so that a moment reads each one's newest form by its index.
        """
        CREATE TABLE form_parts (kind INTEGER NOT NULL, subject TEXT NOT NULL, PRIMARY KEY (kind, subject)) WITHOUT ROWID;
        CREATE TABLE forms (
            kind INTEGER NOT NULL, subject TEXT NOT NULL, at INTEGER NOT NULL, form TEXT NOT NULL,
            title TEXT, phase TEXT, health TEXT, summary TEXT, from_phase TEXT, from_health TEXT, from_summary TEXT,
            listed INTEGER NOT NULL);
        CREATE INDEX forms_by_part ON forms (kind, subject, at);
        CREATE INDEX forms_changes ON forms (at) WHERE listed = 1;
        CREATE INDEX forms_by_time ON forms (at);
        """,
        // Flapping: `latest` keeps the panel's flapping count (its changes of health within the
        // rule's window and when flapping began), so a restart, a crash or the next leader goes on
        // flapping from the same `since` and calms when it would have.
        """
        ALTER TABLE latest ADD COLUMN flap_changes TEXT;
        ALTER TABLE latest ADD COLUMN flapping_since INTEGER;
        """,
        // Retention deletes changes by their time, not their order: a change stamped ahead (a
        // clock set wrong) holds up the deletion of none after it.
        """
        CREATE INDEX changes_by_time ON changes (at);
        """,
    ]

    static var currentVersion: Int { migrations.count }

    /// Whether the file at `path` may be opened as a history: missing or empty (a new one), or
    /// an SQLite database, as the first bytes of its header say. Anything else is left alone.
    static func inspect(path: String) throws(HistoryOpenError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path: path, reason: "it is not a regular file")
        }
        var header = [UInt8](repeating: 0, count: 16)
        let count = read(descriptor, &header, header.count)
        guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard count == 0 || header.elementsEqual(Array("SQLite format 3\0".utf8)) else {
            throw .notHistory(path: path, reason: "it is not an SQLite database")
        }
    }

    /// The history version of the database open as `database` (read through its write-ahead
    /// log, where the newest header is), after checking it is a StateDeck history at all;
    /// messages name it `path`.
    static func version(of database: Database, at path: String) throws(HistoryOpenError) -> Int {
        do {
            let application = Int32(truncatingIfNeeded: try database.integer("PRAGMA application_id") ?? 0)
            let version = Int(try database.integer("PRAGMA user_version") ?? 0)
            let tables = try database.integer("SELECT count(*) FROM sqlite_schema") ?? 0
            if application != applicationID {
                if application == 0, version == 0, tables == 0 { return 0 }
                let owner = application == 0 ? "another program" : "another program (application id \(application))"
                throw HistoryOpenError.notHistory(path: path, reason: "it is an SQLite database of \(owner)")
            }
            guard version <= currentVersion else {
                throw HistoryOpenError.newerSchema(path: path, version: version, supported: currentVersion)
            }
            return version
        } catch let error as HistoryOpenError {
            throw error
        } catch let error as SQLiteError {
            throw error.isDamagedFile
                ? .notHistory(path: path, reason: "it is damaged (\(error.message))")
                : .unreadable(path: path, reason: error.description)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Brings `database`, at `version`, to the current version, each step in its transaction.
    static func migrate(_ database: Database, from version: Int) throws(SQLiteError) {
        for next in version..<currentVersion {
            try database.transaction { () throws(SQLiteError) in
                try database.execute(migrations[next])
                try database.execute("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(next + 1)")
            }
        }
    }
}
