import EventStream
import Postgres
import StateDeckServer

/// The leader's session: it holds the leader's advisory lock, and writes the deck's events with
/// the panels they changed, each batch in one transaction that ends with a `NOTIFY`.
///
/// Writing through the session that holds the lock fences a former leader: once its session is
/// gone (the lock with it), nothing it still has queued can reach the store. A leader cut off from
/// the store (a partition, not a kill) loses both ends within `partitionTimeout`: the server ends
/// the session once it hears nothing from it for that long, and every call the leader makes fails
/// when it has not returned by then.
final class ClusterLeader {
    /// Events written in one transaction.
    static let batchLimit = 1_000
    /// Panels exported in one statement (10 parameters each, PostgreSQL takes 65,535).
    static let panelsPerStatement = 1_000

    private let session: PostgresConnection
    /// The id of the next event; consecutive while this leader leads, since only the lock's
    /// holder writes.
    private var nextID: UInt64
    /// The newest event in the store when the lock was taken (0 for none): this server's replica
    /// must hold it before its deck starts from what the pages were shown.
    let newestAtTakeover: UInt64
    private let keptEvents: Int
    private let partitionTimeout: Duration

    /// Takes the leader's lock on `session`, or returns nil while another server holds it.
    init?(session: PostgresConnection, keptEvents: Int,
          partitionTimeout: Duration) throws(PostgresError) {
        let newest: UInt64? = try session.failing(after: partitionTimeout) { session throws(PostgresError) in
            try Self.endWhenSilent(session, after: partitionTimeout)
            guard try session.query("SELECT pg_try_advisory_lock($1)", [String(PostgresCluster.leaderLock)])
                .boolean(0, 0) == true else { return nil }
            let newest = try session.query("SELECT max(id) FROM statedeck_events").integer(0, 0).map(UInt64.init) ?? 0
            // Every reader wakes and reads what the last leader wrote.
            try session.query("SELECT pg_notify($1, '')", [ClusterFeed.channel])
            return newest
        }
        guard let newest else { return nil }
        self.session = session
        self.keptEvents = keptEvents
        self.partitionTimeout = partitionTimeout
        newestAtTakeover = newest
        // From the time, as a lone server numbers, unless the store holds a later id: so ids a
        // page kept from an earlier single server, or from before the store was restored from an
        // older backup, are older than anything here, and the page gets a snapshot rather than
        // other events under ids it has.
        nextID = max(newest + 1, WallClock.microsecondsSince1970())
    }

    /// Has the server end `session`, and with it the lock, once it has heard nothing from it for
    /// `timeout`: idle (a leader checks its session every election interval) or in a transaction,
    /// or with its peer gone (keepalives, and a write nobody acknowledges). Without this the
    /// server would keep a cut-off leader's lock until TCP gave up, hours later.
    private static func endWhenSilent(_ session: PostgresConnection, after timeout: Duration) throws(PostgresError) {
        let seconds = max(3, Int(timeout / .seconds(1)))
        var settings = [
            "idle_in_transaction_session_timeout = '\(seconds)s'", "tcp_user_timeout = \(seconds * 1000)",
            "tcp_keepalives_idle = \(seconds / 3)", "tcp_keepalives_interval = 1", "tcp_keepalives_count = \(seconds / 3)",
        ]
        // `idle_session_timeout` came with PostgreSQL 14; before it the keepalives alone end a
        // session whose peer is gone.
        if try session.query("SHOW server_version_num").integer(0, 0) ?? 0 >= 140_000 {
            settings.append("idle_session_timeout = '\(seconds)s'")
        }
        try session.execute(settings.map { "SET \($0)" }.joined(separator: "; "))
    }

    /// Writes `entries` (oldest first) in one transaction: the events, the panels they changed
    /// (every panel and the layout after a `snapshot`), the deck's other parts as the newest that
    /// carries them left them, and a notification of the newest id.
    func write(_ entries: [ClusterLog.Entry]) throws(PostgresError) {
        guard !entries.isEmpty else { return }
        let last = nextID + UInt64(entries.count) - 1
        try session.failing(after: partitionTimeout) { session throws(PostgresError) in
            try session.transaction { () throws(PostgresError) in
                var values: [String?] = []
                for (offset, entry) in entries.enumerated() {
                    let id = nextID + UInt64(offset)
                    let data = entry.deck.map { String(decoding: $0.document.beforeID + Array(String(id).utf8) + $0.document.afterID,
                                                       as: UTF8.self) } ?? entry.data
                    values += [String(id), entry.event, data]
                }
                try session.query("INSERT INTO statedeck_events (id, event, data) VALUES \(Self.rows(entries.count, of: 3))", values)
                // The rows hold each panel as the batch's last event left it: a whole deck from
                // the last snapshot, and each panel changed after it.
                let newestDeck = entries.lastIndex { $0.deck != nil }
                var positions: [String: Int] = [:]
                if let newestDeck, let deck = entries[newestDeck].deck {
                    try session.query(
                        "INSERT INTO statedeck_layout (header, version) VALUES ($1, $2) ON CONFLICT (singleton) DO UPDATE SET header = excluded.header, version = excluded.version",
                        [String(decoding: deck.header, as: UTF8.self), String(last)])
                    try session.execute("DELETE FROM statedeck_panels")
                    positions = Dictionary(deck.order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                }
                var changed: [String: ExportedPanel] = [:]
                var order: [String] = []
                for entry in entries[(newestDeck ?? -1) + 1..<entries.count] {
                    for panel in entry.panels where changed.updateValue(panel, forKey: panel.id) == nil { order.append(panel.id) }
                }
                let deckPanels = newestDeck.flatMap { entries[$0].deck?.panels.filter { changed[$0.id] == nil } } ?? []
                try save(deckPanels + order.compactMap { changed[$0] }, version: last, positions: positions)
                if let parts = entries.reversed().lazy.compactMap({ $0.parts ?? $0.deck?.parts }).first {
                    try session.query("UPDATE statedeck_layout SET notice = $1, maintenance = $2, incidents = $3",
                                      [parts.notice, parts.maintenance, parts.incidents].map { String(decoding: $0, as: UTF8.self) })
                }
                try session.query("SELECT pg_notify($1, $2)", [ClusterFeed.channel, String(last)])
            }
        }
        nextID = last + 1
    }

    /// Removes events no page could still ask for: all but the newest `keptEvents`, counted by
    /// rows, since ids jump where a leader took over.
    func trim() throws(PostgresError) {
        try session.failing(after: partitionTimeout) { session throws(PostgresError) in
            try session.query(
                "DELETE FROM statedeck_events WHERE id < (SELECT id FROM statedeck_events ORDER BY id DESC OFFSET $1 LIMIT 1)",
                [String(max(keptEvents, 1) - 1)])
        }
    }

    /// Whether the session still answers: a leader that lost it must stop running the deck.
    func check() throws(PostgresError) {
        try session.failing(after: partitionTimeout) { session throws(PostgresError) in try session.execute("SELECT 1") }
    }

    /// Inserts or updates `panels`; `positions` places new rows (a changed panel keeps its place).
    private func save(_ panels: [ExportedPanel], version: UInt64, positions: [String: Int]) throws(PostgresError) {
        var start = 0
        while start < panels.count {
            let chunk = panels[start..<min(start + Self.panelsPerStatement, panels.count)]
            var values: [String?] = []
            for panel in chunk {
                values += [panel.id, String(positions[panel.id] ?? 0), String(decoding: panel.compact, as: UTF8.self),
                           String(decoding: panel.document, as: UTF8.self), panel.headline.label,
                           String(panel.headline.health.rawValue), String(version),
                           String(decoding: panel.memoryRecord, as: UTF8.self), String(panel.headline.inMaintenance),
                           String(panel.headline.flapping)]
            }
            try session.query("""
                INSERT INTO statedeck_panels (id, position, compact, document, label, health, version, memory, in_maintenance, flapping)
                VALUES \(Self.rows(chunk.count, of: 10))
                ON CONFLICT (id) DO UPDATE SET compact = excluded.compact, document = excluded.document,
                    label = excluded.label, health = excluded.health, version = excluded.version, memory = excluded.memory,
                    in_maintenance = excluded.in_maintenance, flapping = excluded.flapping
                """, values)
            start += chunk.count
        }
    }

    /// `($1, $2, $3), ($4, $5, $6)…`: `count` rows of `width` parameters.
    private static func rows(_ count: Int, of width: Int) -> String {
        (0..<count).map { row in
            "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
    }
}
