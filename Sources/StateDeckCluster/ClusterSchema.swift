import Postgres

/// The tables a cluster shares in PostgreSQL: the events the leader made, numbered; each panel's
/// current documents, as replicas serve them; the deck's layout; and actions on their way to the
/// leader, with its answers. From version 2: the probes that check the deck from other places
/// (`statedeck probe`), and each one's newest result of each panel. From version 4: who sent each
/// action, which the leader signs its audit entry with. From version 5: whether a maintenance
/// window holds each panel and whether it flaps, beside its health.
///
/// Each version's statements, in order; a version once released never changes. A process of an
/// earlier version refuses a newer store when it starts or tries for the lead, so the only one
/// that writes to it is a leader that was leading when the store was brought up: its panels keep
/// the defaults of the columns it does not know until the next leader's first `snapshot` writes
/// every panel again.
enum ClusterSchema {
    static let migrations: [String] = [
        """
        CREATE TABLE statedeck_events (id bigint PRIMARY KEY, event text NOT NULL, data text NOT NULL);
        CREATE TABLE statedeck_panels (
            id text PRIMARY KEY, position integer NOT NULL, compact text NOT NULL, document text NOT NULL,
            label text NOT NULL, health smallint NOT NULL, version bigint NOT NULL);
        CREATE INDEX statedeck_panels_by_version ON statedeck_panels (version);
        CREATE TABLE statedeck_layout (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), header text NOT NULL, version bigint NOT NULL);
        CREATE TABLE statedeck_actions (
            id bigserial PRIMARY KEY, method text NOT NULL, target text NOT NULL, body text NOT NULL,
            sent timestamptz NOT NULL DEFAULT now(), claimed boolean NOT NULL DEFAULT false,
            status integer, answer text);
        """,
        """
        CREATE TABLE statedeck_probes (
            location text PRIMARY KEY, last_seen timestamptz NOT NULL, heartbeat_ms integer NOT NULL);
        CREATE TABLE statedeck_probe_results (
            location text NOT NULL REFERENCES statedeck_probes ON DELETE CASCADE, panel text NOT NULL,
            health text NOT NULL CHECK (health IN ('up', 'down', 'loading')), summary text, since timestamptz,
            up_ms bigint NOT NULL, down_ms bigint NOT NULL, checked_at timestamptz NOT NULL,
            PRIMARY KEY (location, panel));
        """,
        // What each panel showed, as the member that leads next continues it: a record of its own,
        // not the page's document read back.
        """
        ALTER TABLE statedeck_panels ADD COLUMN memory text NOT NULL DEFAULT '';
        """,
        // Who sent each action, as the gate of the server that let it in saw them: the leader
        // signs the action's audit entry with it.
        """
        ALTER TABLE statedeck_actions ADD COLUMN caller text, ADD COLUMN role text;
        """,
        // What the status page reads of a panel besides its health, as the leader decided it, so
        // that every server says the same of it.
        """
        ALTER TABLE statedeck_panels
            ADD COLUMN in_maintenance boolean NOT NULL DEFAULT false, ADD COLUMN flapping boolean NOT NULL DEFAULT false;
        """,
        // The deck's notice, maintenance and incidents as the newest event left them (null until a
        // leader of this version told them): a server that starts, or reads after a gap, holds them
        // as it holds the panels, not as the events it read last left them.
        """
        ALTER TABLE statedeck_layout ADD COLUMN notice text, ADD COLUMN maintenance text, ADD COLUMN incidents text;
        """,
    ]

    /// Connects to `url` once and brings its tables to the current version.
    ///
    /// - Throws: ``ClusterError`` when PostgreSQL cannot be reached or its tables are newer.
    static func prepare(_ url: String) throws(ClusterError) {
        let session: PostgresConnection
        do {
            session = try PostgresConnection(url)
        } catch {
            throw .unreachable(error.message)
        }
        try migrate(session)
    }

    /// Brings the database to the current version, once however many servers start together (a
    /// transaction-scoped advisory lock orders them).
    ///
    /// - Throws: ``ClusterError/newerSchema(version:supported:)`` when a newer StateDeck made it.
    static func migrate(_ session: PostgresConnection) throws(ClusterError) {
        var newer: Int?
        do {
            try session.transaction { () throws(PostgresError) in
                try session.query("SELECT pg_advisory_xact_lock($1)", [String(PostgresCluster.migrationLock)])
                try session.execute("CREATE TABLE IF NOT EXISTS statedeck_cluster_schema (version integer NOT NULL)")
                let version = Int(try session.query("SELECT max(version) FROM statedeck_cluster_schema").integer(0, 0) ?? 0)
                guard version <= migrations.count else {
                    newer = version
                    return
                }
                for next in version..<migrations.count {
                    try session.execute(migrations[next])
                    try session.query("INSERT INTO statedeck_cluster_schema VALUES ($1)", [String(next + 1)])
                }
            }
        } catch {
            throw .unreachable(error.message)
        }
        if let newer { throw .newerSchema(version: newer, supported: migrations.count) }
    }
}
