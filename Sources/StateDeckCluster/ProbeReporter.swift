import FoundationEssentials
import Logging
import Postgres
import StateDeck

/// A probe's side of a cluster's store: what its deck sees of each panel, written under its
/// location to `statedeck_probe_results`, and a heartbeat in `statedeck_probes` at least every
/// `heartbeat`, by which the leader tells a probe still at work from one that stopped.
///
/// Results are written after each change of the deck (at most five times a second) and with the
/// heartbeat; a heartbeat with nothing new only moves `last_seen`.
public final class ProbeReporter: Sendable {
    /// The longest location name.
    public static let maximumNameLength = 40

    public let location: String
    public let heartbeat: Duration
    private let session: StoreSession
    private let logger: Logger

    /// Checks the location's name, connects once to check the store and bring its tables to
    /// this version.
    ///
    /// - Throws: ``ClusterError`` when PostgreSQL cannot be reached or its tables are newer.
    public init(url: String, location: String, heartbeat: Duration = .seconds(2),
                logger: Logger = Logger(label: "statedeck")) throws(ClusterError) {
        self.location = location
        self.heartbeat = heartbeat
        self.logger = logger
        session = StoreSession(url: url)
        try ClusterSchema.prepare(url)
    }

    /// Why `name` cannot name a location, or nil when it can: 1 to ``maximumNameLength``
    /// characters of a-z, 0-9, '-', '_' and '.', and not the name a server gives its own place.
    public static func problem(withLocation name: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_.")
        if name.isEmpty { return "must not be empty" }
        if name.count > maximumNameLength { return "must be at most \(maximumNameLength) characters, not \(name.count)" }
        if let bad = name.first(where: { !allowed.contains($0) }) {
            return "may hold only a-z, 0-9, '-', '_' and '.', not '\(bad)'"
        }
        if name == Deck.Configuration.ownLocation { return "'\(name)' is the name of the server's own place" }
        return nil
    }

    /// Reports what `deck` sees, after each change and every heartbeat, until the calling task
    /// is cancelled. A store that fails is logged and tried again at the next heartbeat.
    public func run(_ deck: Deck) async {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await deck.observe { event in
            if case .change = event { wake.yield() }
        }
        let ticker = Task { [heartbeat] in
            while !Task.isCancelled {
                wake.yield()
                try? await Task.sleep(for: heartbeat)
            }
        }
        defer { ticker.cancel() }
        var written: [String: LocationRecord]?
        var failing = false
        for await _ in wakes {
            let records = await deck.locationRecords()
            let result = await write(records, changed: records != written)
            guard !Task.isCancelled else { break }
            switch result {
            case .success:
                written = records
                if failing { logger.info("probe \(location): the store answers again") }
                failing = false
            case .failure(let error):
                if !failing { logger.error("probe \(location): cannot write to the store (\(error)); trying again") }
                failing = true
                written = nil
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Moves the heartbeat, and with `changed` replaces the location's results with `records`,
    /// in one transaction.
    func write(_ records: [String: LocationRecord], changed: Bool) async -> Result<Void, PostgresError> {
        let (location, heartbeatMs) = (location, String(Int(heartbeat / .milliseconds(1))))
        return await session.blocking { session throws(PostgresError) in
            try session.transaction { () throws(PostgresError) in
                try session.query("""
                    INSERT INTO statedeck_probes (location, last_seen, heartbeat_ms) VALUES ($1, now(), $2)
                    ON CONFLICT (location) DO UPDATE SET last_seen = now(), heartbeat_ms = excluded.heartbeat_ms
                    """, [location, heartbeatMs])
                guard changed else { return }
                try session.query("DELETE FROM statedeck_probe_results WHERE location = $1", [location])
                try Self.insert(records.sorted { $0.key < $1.key }, of: location, on: session)
            }
        }
    }

    /// Rows written in one statement (7 parameters each, PostgreSQL takes 65,535).
    private static let rowsPerStatement = 1_000

    private static func insert(_ records: [(key: String, value: LocationRecord)], of location: String,
                               on session: PostgresConnection) throws(PostgresError) {
        var start = 0
        while start < records.count {
            let chunk = records[start..<min(start + rowsPerStatement, records.count)]
            var values: [String?] = []
            var rows: [String] = []
            for (panel, record) in chunk {
                let first = values.count
                rows.append("($\(first + 1), $\(first + 2), $\(first + 3), $\(first + 4), "
                    + "to_timestamp($\(first + 5)::bigint / 1000.0), $\(first + 6), $\(first + 7), now())")
                values += [location, panel, record.health.rawValue, record.summary,
                           record.since.map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded())) },
                           String(Int64(record.upTime / .milliseconds(1))), String(Int64(record.downTime / .milliseconds(1)))]
            }
            try session.query("""
                INSERT INTO statedeck_probe_results
                    (location, panel, health, summary, since, up_ms, down_ms, checked_at)
                VALUES \(rows.joined(separator: ", "))
                """, values)
            start += chunk.count
        }
    }
}
