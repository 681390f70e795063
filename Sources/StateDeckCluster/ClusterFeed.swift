import Postgres
import StateDeck
import StateDeckHistory
import StateDeckServer

/// One server's reading of the store: every event the leader wrote, in id order, with the panels
/// it changed, handed to the server's replica. It listens on `statedeck_events`, and reads again
/// at least every second, so a notification lost with a broken session costs a second at most.
///
/// Unchecked: it is opened on one thread and handed to the feed's, which alone uses it after.
final class ClusterFeed: @unchecked Sendable {
    static let channel = "statedeck_events"

    private let url: String
    private var session: PostgresConnection
    private let member: ClusterMember
    /// The newest event handed to the replica; 0 before the first read.
    private(set) var lastID: UInt64 = 0
    /// Whether the replica holds a deck: none before a leader first wrote one.
    private(set) var hasDeck = false

    /// Connects, listens, and loads the replica: the deck's layout and panels as the store has
    /// them, and the newest `held` events into the hub, for pages that reconnect with
    /// `Last-Event-ID` (from a server that died, say).
    init(url: String, member: ClusterMember, held: Int) throws(PostgresError) {
        self.url = url
        session = try Self.listening(url)
        self.member = member
        try readConsistently { () throws(PostgresError) in
            let events = try events(
                "SELECT id, event, data FROM (SELECT * FROM statedeck_events ORDER BY id DESC LIMIT $1) held ORDER BY id",
                [String(held)])
            hand(events, afterGap: true, holding: try deck())
        }
    }

    private static func listening(_ url: String) throws(PostgresError) -> PostgresConnection {
        let session = try PostgresConnection(url)
        for channel in [channel, ClusterActions.requests, ClusterActions.answers] {
            try session.execute("LISTEN \(channel)")
        }
        return session
    }

    /// Whether some server holds the leader's lock (``PostgresCluster/leaderLock``): PostgreSQL
    /// lists an advisory lock of a 64-bit key as its high and low halves.
    func someoneLeads() throws(PostgresError) -> Bool {
        let key = UInt64(bitPattern: PostgresCluster.leaderLock)
        return try session.query("""
            SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::oid AND objid = $2::oid
                AND objsubid = 1 AND granted)
            """, [String(key >> 32), String(key & 0xFFFF_FFFF)]).boolean(0, 0) == true
    }

    /// Opens a new session in place of one that broke; the next read continues after `lastID`.
    func reconnect() throws(PostgresError) {
        session = try Self.listening(url)
    }

    /// Waits for news up to `timeout` (or until `wake` is readable), hands over every event after
    /// `lastID`, and returns what was heard on the actions' channels.
    func follow(waiting timeout: Duration, wake: Int32) throws(PostgresError) -> [PostgresNotification] {
        guard session.waitForInput(timeout: timeout, wake: wake) else {
            throw PostgresError(kind: .connection, message: "the session has no socket")
        }
        let heard = try session.notifications()
        try readNews()
        return heard.filter { $0.channel != Self.channel }
    }

    /// Hands over every event after `lastID` with the panels as the newest of them left them
    /// (the leader writes both in one transaction; the store keeps its newest events only). After
    /// a gap (events removed before this server read them, while it was cut off, or lost to a
    /// restore of the store from an older backup) the replica reloads every panel and its pages
    /// get one snapshot, at the newest event, in place of the events.
    private func readNews() throws(PostgresError) {
        try readConsistently { () throws(PostgresError) in
            // Read from `lastID` itself: ids jump where a new leader took over, so only that
            // event's absence from the store tells of events this server missed.
            var events = try events("SELECT id, event, data FROM statedeck_events WHERE id >= $1 ORDER BY id", [String(lastID)])
            let afterGap = events.first?.id != lastID
            if !afterGap { events.removeFirst() }
            guard let newest = events.last?.id else { return }
            if afterGap {
                hand([StoredEvent(id: newest, event: "snapshot", data: "")], afterGap: true, holding: try deck())
            } else if events.contains(where: { $0.event == "snapshot" }) {
                hand(events, afterGap: false, holding: try deck())
            } else {
                hand(events, afterGap: false, holding: .changed(try panels(where: "version > $1", [String(lastID)])))
            }
        }
    }

    /// An event as the leader wrote it.
    private struct StoredEvent {
        var id: UInt64
        var event: String
        var data: String
    }

    /// The events `sql` selects (id, event, data), in its order.
    private func events(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> [StoredEvent] {
        let rows = try session.query(sql, parameters)
        return (0..<rows.count).compactMap { row in
            rows.integer(row, 0).map { StoredEvent(id: UInt64($0), event: rows[row, 1] ?? "", data: rows[row, 2] ?? "") }
        }
    }

    /// Hands `events` to the replica, in order, with `panels` as the last of them left them; the
    /// first comes `afterGap` or not, and each other follows the one before it in the store.
    private func hand(_ events: [StoredEvent], afterGap: Bool, holding panels: HeldPanels?) {
        if case .deck = panels { hasDeck = true }
        member.server.serve(events.map { HeldEvent(event: $0.event, data: $0.data, id: $0.id) }, afterGap: afterGap, holding: panels)
        lastID = events.last?.id ?? lastID
    }

    /// Runs `body` in one transaction that sees the store as it was at its first read, so the
    /// panels read match the events read.
    private func readConsistently<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try session.transaction { () throws(PostgresError) in
            try session.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return try body()
        }
    }

    /// The deck's layout, every panel and its other parts, once a leader wrote them.
    private func deck() throws(PostgresError) -> HeldPanels? {
        let layout = try session.query("SELECT header, notice, maintenance, incidents FROM statedeck_layout")
        guard let header = layout[0, 0] else { return nil }
        var parts: ExportedDeckParts?
        if let notice = layout[0, 1], let maintenance = layout[0, 2], let incidents = layout[0, 3] {
            parts = ExportedDeckParts(notice: Array(notice.utf8), maintenance: Array(maintenance.utf8), incidents: Array(incidents.utf8))
        }
        let panels = try panels(where: "true", [])
        return .deck(header: Array(header.utf8), order: panels.map(\.id), panels: panels, parts: parts)
    }

    private func panels(where condition: String, _ parameters: [String?]) throws(PostgresError) -> [ExportedPanel] {
        let rows = try session.query(
            """
            SELECT id, compact, document, label, health, memory, in_maintenance, flapping FROM statedeck_panels
            WHERE \(condition) ORDER BY position
            """, parameters)
        return (0..<rows.count).map { row in
            ExportedPanel(
                id: rows[row, 0] ?? "", compact: Array((rows[row, 1] ?? "").utf8),
                document: Array((rows[row, 2] ?? "").utf8),
                headline: PanelHeadline(label: rows[row, 3] ?? "",
                                        health: Health(rawValue: Int(rows.integer(row, 4) ?? 0)) ?? .unknown,
                                        inMaintenance: rows.boolean(row, 6) ?? false, flapping: rows.boolean(row, 7) ?? false),
                memoryRecord: Array((rows[row, 5] ?? "").utf8))
        }
    }
}
