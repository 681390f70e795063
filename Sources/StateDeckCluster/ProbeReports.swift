import FoundationEssentials
import Logging
import Postgres
import StateDeck
import StateDeckServer

/// The leader's side of the probes: every probe's newest results, read from the store every
/// `pollInterval` while this server runs the deck, and handed to the deck as each panel's remote
/// locations (``Deck/setRemoteLocations(_:)``).
///
/// A probe silent for longer than `noDataAfter`, or three of its own heartbeats if that is
/// longer, shows as `noData` with the time it was last heard from: never as up. One silent for
/// `forgetAfter` is retired: its location and results are deleted, and no panel shows it.
public final class ProbeReports: Sendable {
    public struct Configuration: Sendable {
        /// How long a probe may stay silent before its panels show no data (at least three of
        /// its heartbeats).
        public var noDataAfter: Duration = .seconds(15)
        /// How often the leader reads the probes' results.
        public var pollInterval: Duration = .seconds(1)
        /// How long a probe may stay silent before its location is forgotten: a day, so a probe
        /// down overnight still shows as no data in the morning.
        public var forgetAfter: Duration = .seconds(86_400)

        public init() {}
    }

    public let configuration: Configuration
    private let session: StoreSession
    private let logger: Logger

    /// Reads through `url` from the first poll on; nothing is connected before.
    public init(url: String, configuration: Configuration = Configuration(), logger: Logger = Logger(label: "statedeck")) {
        self.configuration = configuration
        self.logger = logger
        session = StoreSession(url: url)
    }

    /// While `server` runs the deck, hands the probes' results to its deck every poll, until the
    /// calling task is cancelled. A failed read is logged and the panels keep what they show.
    public func run(serving server: DeckServer) async {
        var failing = false
        while !Task.isCancelled {
            if server.isRunningDeck {
                if case .success(let retired) = await forgetRetired(), !retired.isEmpty {
                    logger.notice("probes: forgot \(retired.joined(separator: ", ")), silent for \(configuration.forgetAfter.lengthText)")
                }
                switch await read() {
                case .success(let locations):
                    await server.deck.setRemoteLocations(locations)
                    failing = false
                case .failure(let error):
                    if !failing { logger.error("probes: cannot read their results (\(error)); trying again") }
                    failing = true
                }
            }
            try? await Task.sleep(for: configuration.pollInterval)
        }
    }

    /// Deletes each probe silent for ``Configuration/forgetAfter`` and its results; returns their
    /// locations.
    public func forgetRetired() async -> Result<[String], PostgresError> {
        let silence = String(Int64(configuration.forgetAfter / .milliseconds(1)))
        return await session.blocking { session throws(PostgresError) in
            let rows = try session.query("""
                DELETE FROM statedeck_probes WHERE now() - last_seen > $1::bigint * interval '1 millisecond' RETURNING location
                """, [silence])
            return (0..<rows.count).compactMap { rows[$0, 0] }.sorted()
        }
    }

    /// Every probe's results, by panel.
    public func read() async -> Result<[String: [PanelLocation]], PostgresError> {
        let silence = String(Int64(configuration.noDataAfter / .milliseconds(1)))
        return await session.blocking { session throws(PostgresError) in
            let rows = try session.query("""
                SELECT r.location, r.panel, r.health, r.summary, (extract(epoch FROM r.since) * 1000)::bigint,
                    r.up_ms, r.down_ms, (extract(epoch FROM p.last_seen) * 1000)::bigint,
                    now() - p.last_seen > greatest($1::bigint, 3 * p.heartbeat_ms) * interval '1 millisecond'
                FROM statedeck_probe_results r JOIN statedeck_probes p USING (location)
                ORDER BY r.location
                """, [silence])
            var locations: [String: [PanelLocation]] = [:]
            for row in 0..<rows.count {
                locations[rows[row, 1] ?? "", default: []].append(Self.location(rows, row))
            }
            return locations
        }
    }

    /// Row `row` as a location: `noData` since the probe's last report when it went silent.
    private static func location(_ rows: PostgresRows, _ row: Int) -> PanelLocation {
        func date(_ column: Int) -> Date? {
            rows.integer(row, column).map { Date(timeIntervalSince1970: Double($0) / 1000) }
        }
        let uptime = PanelLocation.uptime(up: .milliseconds(rows.integer(row, 5) ?? 0),
                                          down: .milliseconds(rows.integer(row, 6) ?? 0))
        guard rows.boolean(row, 8) != true else {
            return PanelLocation(name: rows[row, 0] ?? "", health: .noData, since: date(7), uptime: uptime)
        }
        return PanelLocation(name: rows[row, 0] ?? "", health: PanelLocation.Health(rawValue: rows[row, 2] ?? "") ?? .loading,
                             summary: rows[row, 3], since: date(4), uptime: uptime)
    }
}
