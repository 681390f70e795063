import Postgres

/// StateDeck's tables in a PostgreSQL database: all in the schema `statedeck`, so they sit
/// beside any other program's, with their version in `statedeck.version`.
///
/// Times are BIGINT milliseconds since 1970, as in the SQLite history.
enum PostgresSchema {
    /// Each version's statements, in order: version `n` is reached by running the first `n`.
    /// An entry once released never changes; a new version (more of StateDeck's tables, or a
    /// change to them) is appended as a new entry.
    static let migrations: [String] = [
        // The history: panels by name, every change, tallies of minutes, hours and days, what
        // each panel showed last, the newest event id; the notifications' ledger: each notify
        // entry's outage (by "panel#index") and the deliveries decided and not done, as JSON.
        """
        CREATE TABLE statedeck.panels (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE statedeck.changes (
            id BIGSERIAL PRIMARY KEY, panel BIGINT NOT NULL REFERENCES statedeck.panels, at BIGINT NOT NULL,
            state SMALLINT NOT NULL, duration_ms BIGINT, error_kind TEXT, title TEXT, summary TEXT, detail TEXT,
            debug BOOLEAN NOT NULL DEFAULT false);
        CREATE INDEX changes_by_panel ON statedeck.changes (panel, at);
        CREATE INDEX changes_by_time ON statedeck.changes (at);
        CREATE TABLE statedeck.tallies (
            panel BIGINT NOT NULL REFERENCES statedeck.panels, resolution INTEGER NOT NULL, start BIGINT NOT NULL,
            up_ms BIGINT NOT NULL, down_ms BIGINT NOT NULL, loading_ms BIGINT NOT NULL, loads INTEGER NOT NULL,
            failures INTEGER NOT NULL, min_ms BIGINT, max_ms BIGINT, total_ms BIGINT NOT NULL, durations BYTEA NOT NULL,
            PRIMARY KEY (panel, resolution, start));
        CREATE TABLE statedeck.latest (
            panel BIGINT PRIMARY KEY REFERENCES statedeck.panels, shown TEXT, info TEXT, error TEXT,
            stale BOOLEAN NOT NULL, health SMALLINT NOT NULL, since BIGINT NOT NULL);
        CREATE TABLE statedeck.meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
        CREATE TABLE statedeck.notify_outages (key TEXT PRIMARY KEY, watch TEXT NOT NULL);
        CREATE TABLE statedeck.notify_outbox (
            id TEXT PRIMARY KEY, key TEXT NOT NULL, at BIGINT NOT NULL, notification TEXT NOT NULL);
        """,
        // Watches: the stretches StateDeck counted time without a break (its hours and days saved up
        // to tallied_to). Each tally is its watch's, so that a watch never writes over another's;
        // rows kept before are watch 0.
        """
        CREATE TABLE statedeck.watches (
            id BIGINT PRIMARY KEY, started BIGINT NOT NULL, watched_to BIGINT NOT NULL, tallied_to BIGINT NOT NULL);
        ALTER TABLE statedeck.tallies ADD COLUMN watch BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE statedeck.tallies DROP CONSTRAINT tallies_pkey;
        ALTER TABLE statedeck.tallies ADD PRIMARY KEY (panel, resolution, start, watch);
        """,
        // A minute saved while open keeps the time it was counted to, and `latest` whether a debug
        // command holds the panel: a store opening after a crash counts the time since in the
        // health kept, so open minutes need saving only when they gain a load or a change.
        """
        ALTER TABLE statedeck.tallies ADD COLUMN counted_to BIGINT;
        ALTER TABLE statedeck.latest ADD COLUMN forced BOOLEAN NOT NULL DEFAULT false;
        """,
        // When a heartbeat's newest run ended: its next is due after it, across a restart.
        """
        ALTER TABLE statedeck.latest ADD COLUMN last_run BIGINT;
        """,
        // Maintenance: time under a window counts apart from up and down, `latest` says whether a
        // window covers the panel (a crash then credits it maintenance), and the windows started
        // through the API or ended early are kept, so a restart or a failover inside one continues it.
        """
        ALTER TABLE statedeck.tallies ADD COLUMN maintenance_ms BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE statedeck.latest ADD COLUMN maintenance BOOLEAN NOT NULL DEFAULT false;
        CREATE TABLE statedeck.maintenance (
            id TEXT NOT NULL, start BIGINT NOT NULL, until BIGINT NOT NULL, reason TEXT NOT NULL,
            panels TEXT NOT NULL, source TEXT NOT NULL, schedule TEXT,
            PRIMARY KEY (id, start));
        """,
        // Incidents and announcements, each one row with its updates as JSON: written whole at
        // each update, so a restart or the next leader takes them up as they were answered.
        """
        CREATE TABLE statedeck.incidents (
            id TEXT PRIMARY KEY, title TEXT NOT NULL, panels TEXT NOT NULL, opened BIGINT NOT NULL,
            resolved BIGINT, updates TEXT NOT NULL);
        """,
        // The audit: every action a person took, signed with their name and role, kept as long as
        // the days' tallies.
        """
        CREATE TABLE statedeck.audit (
            id TEXT PRIMARY KEY, at BIGINT NOT NULL, actor TEXT NOT NULL, role TEXT NOT NULL, action TEXT NOT NULL,
            panel TEXT, subject TEXT NOT NULL, detail TEXT NOT NULL);
        CREATE INDEX audit_by_time ON statedeck.audit (at);
        CREATE INDEX audit_by_panel ON statedeck.audit (panel, at);
        """,
        // Moments: each form a part of the state document took (a panel's compact form, the deck's
        // notice, maintenance, incidents), kept when it differs from the part's newest and as long
        // as changes, with a panel's headline before and after (what `GET /api/changes` lists);
        // `form_parts` names every part, so that a moment reads each one's newest form by its index.
        """
        CREATE TABLE statedeck.form_parts (kind SMALLINT NOT NULL, subject TEXT NOT NULL, PRIMARY KEY (kind, subject));
        CREATE TABLE statedeck.forms (
            id BIGINT PRIMARY KEY, kind SMALLINT NOT NULL, subject TEXT NOT NULL, at BIGINT NOT NULL, form TEXT NOT NULL,
            title TEXT, phase TEXT, health TEXT, summary TEXT, from_phase TEXT, from_health TEXT, from_summary TEXT,
            listed BOOLEAN NOT NULL);
        CREATE INDEX forms_by_part ON statedeck.forms (kind, subject, at);
        CREATE INDEX forms_changes ON statedeck.forms (at) WHERE listed;
        CREATE INDEX forms_by_time ON statedeck.forms (at);
        """,
        // Flapping: `latest` keeps the panel's flapping count (its changes of health within the
        // rule's window and when flapping began), so a restart, a crash or the next leader goes on
        // flapping from the same `since` and calms when it would have.
        """
        ALTER TABLE statedeck.latest ADD COLUMN flap_changes TEXT;
        ALTER TABLE statedeck.latest ADD COLUMN flapping_since BIGINT;
        """,
        // A delivery is sent under a claim: the epoch of the takeover whose process claimed it,
        // so that no two processes send it (a later epoch may claim it again: the one before was
        // killed before the target's answer was written).
        """
        ALTER TABLE statedeck.notify_outbox ADD COLUMN claimed BIGINT;
        """,
    ]

    static var currentVersion: Int { migrations.count }

    /// The advisory lock migrations run under ("SDck"): two processes starting at once take
    /// turns, and the second finds the tables made.
    static let migrationLock: Int64 = 0x5344_636B

    /// Brings the database of `session` to the current version in one transaction, under the
    /// migration lock, and returns the version it found.
    ///
    /// - Throws: ``PostgresStoreError/newerSchema(server:version:supported:)`` when a newer
    ///   StateDeck wrote it (nothing is changed then); `.unreachable` or `.refused` when the
    ///   session breaks or a statement is refused.
    @discardableResult
    static func migrate(_ session: PostgresConnection, server: String) throws(PostgresStoreError) -> Int {
        do {
            return try session.transaction { () throws(PostgresError) -> Result<Int, PostgresStoreError> in
                try session.query("SELECT pg_advisory_xact_lock($1)", [String(migrationLock)])
                try session.execute("""
                    CREATE SCHEMA IF NOT EXISTS statedeck;
                    CREATE TABLE IF NOT EXISTS statedeck.version (version INTEGER NOT NULL)
                    """)
                let found = Int(try session.query("SELECT max(version) FROM statedeck.version").integer(0, 0) ?? 0)
                guard found <= currentVersion else {
                    return .failure(.newerSchema(server: server, version: found, supported: currentVersion))
                }
                for next in found..<currentVersion {
                    try session.execute(migrations[next])
                }
                if found < currentVersion {
                    try session.execute("DELETE FROM statedeck.version")
                    try session.query("INSERT INTO statedeck.version (version) VALUES ($1)", [String(currentVersion)])
                }
                return .success(found)
            }.get()
        } catch let error as PostgresStoreError {
            throw error
        } catch let error as PostgresError {
            throw error.kind == .connection
                ? .unreachable(server: server, reason: error.message)
                : .refused(server: server, reason: error.message)
        } catch {
            throw .refused(server: server, reason: "\(error)")
        }
    }
}
