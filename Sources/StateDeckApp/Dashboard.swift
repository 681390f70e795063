import FoundationEssentials
import Locking
import StateDeck
import StateDeckCluster
import StateDeckDemo
import StateDeckHistory
import StateDeckNotifications
import StateDeckPostgres
import StateDeckServer
import StateDeckSources

/// A dashboard as the command line asks for it, wired in one place: the deck (a deck file,
/// reloaded as it is edited, or the demo), where its history is kept (a folder, PostgreSQL, or
/// nowhere), whether it shares the deck with a cluster (`--cluster` makes it a member), and the
/// server over them.
public final class Dashboard: Sendable {
    /// What the command line decided.
    public struct Settings: Sendable {
        /// The deck file, as read, and its path; nil serves the demo.
        public var deckFile: (path: String, file: DeckFile)?
        /// Makes the demo's simulated latency and failures repeatable.
        public var seed: UInt64?
        /// `--data`: the history's folder, `none`, or a PostgreSQL URL (this process alone keeps
        /// the history there); nil for the default beside the deck file.
        public var data: String?
        /// `--cluster`: a PostgreSQL URL, which keeps the history and makes this process a member
        /// of the cluster sharing the deck there.
        public var cluster: String?
        public var server: ServerConfiguration
        /// `--replay`: a fixture file, as read, and its path, served frozen in place of any deck.
        public var replay: (path: String, fixture: DeckFixture)?

        public init(server: ServerConfiguration) {
            self.server = server
        }

        /// The PostgreSQL database the history is kept in, shared by a cluster or this process's
        /// alone; nil for a folder or none.
        var postgres: String? {
            cluster ?? data.flatMap { PostgresStoreAddress.isURL($0) ? $0 : nil }
        }

        /// The history's folder; nil for none, or a history kept in PostgreSQL.
        var folder: String? {
            postgres == nil ? HistoryFolder.path(option: data, deckFile: deckFile?.path) : nil
        }
    }

    /// Why a dashboard could not start: what to tell, and the exit status (2 for what the command
    /// line named, 1 for serving).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public let status: Int32
    }

    private let server: DeckServer
    private let history: (any HistoryStore & NotificationLedger)?
    /// The deck file's reloading and the probes' reports, while it serves.
    private let work: [Task<Void, Never>]
    /// Where it serves, with the token to open it with when one is required.
    public let url: String
    /// Where it serves, without the token: what its ping URLs start with.
    public let address: String

    /// Opens the history (and the cluster) the settings name, makes the deck and serves it.
    public static func start(_ settings: Settings) async throws(Failure) -> Dashboard {
        if let replay = settings.replay { return try await startReplay(replay, server: settings.server) }
        let running = Locked<DeckServer?>(nil)
        // Opened before the deck, whose notifications keep what was told and what is still to
        // deliver in it.
        let history = try openHistory(settings)
        let session = try settings.deckFile.map { deckFile throws(Failure) in
            let session = DeckFileSession(file: deckFile.file, path: deckFile.path, pingKeys: try pingKeys(settings),
                                          server: running)
            return session
        }
        let makeDeck: @Sendable () async -> Deck
        if let session {
            try await keepPingKeys(session)
            makeDeck = { await session.makeDeck() }
        } else {
            let seed = settings.seed
            let backupPingKey = try demoPingKey(settings)
            makeDeck = { ServedDemoDeck.make(seed: seed, server: running, backupPingKey: backupPingKey) }
        }
        let host = try settings.cluster.map { cluster throws(Failure) in
            ClusterDeckHost(cluster: try joinable(cluster), makeDeck: makeDeck)
        }
        let server: DeckServer
        let port: Int
        do {
            server = try await DeckServer(deck: await makeDeck(), configuration: settings.server, history: history,
                                          notificationLedger: history, onNotificationDelivery: session.map { $0.count },
                                          host: host)
            port = try await server.start()
        } catch let error as StaticFilesError {
            throw Failure(description: "--public: \(error)", status: 2)
        } catch {
            throw Failure(description: "cannot serve on \(settings.server.host):\(settings.server.port): \(error)",
                          status: 1)
        }
        running.withLock { $0 = server }
        var work: [Task<Void, Never>] = []
        if let session { work.append(Task { await session.run(serving: server) }) }
        // What probes elsewhere report, shown on each panel while this process runs the deck.
        if let cluster = settings.cluster { work.append(Task { await ProbeReports(url: cluster).run(serving: server) }) }
        return Dashboard(server: server, history: history, work: work, url: settings.server.url(port: port),
                         address: settings.server.address(port: port))
    }

    /// Serves the moment `replay` holds, frozen: no history, no source, no notification.
    private static func startReplay(_ replay: (path: String, fixture: DeckFixture),
                                    server configuration: ServerConfiguration) async throws(Failure) -> Dashboard {
        let server: DeckServer
        let port: Int
        do {
            server = try await DeckServer(deck: ReplayHost.idleDeck(replay.fixture), configuration: configuration,
                                          host: ReplayHost(fixture: replay.fixture, file: replay.path))
            port = try await server.start()
        } catch let error as StaticFilesError {
            throw Failure(description: "--public: \(error)", status: 2)
        } catch {
            throw Failure(description: "cannot serve on \(configuration.host):\(configuration.port): \(error)", status: 1)
        }
        return Dashboard(server: server, history: nil, work: [], url: configuration.url(port: port),
                         address: configuration.address(port: port))
    }

    private init(server: DeckServer, history: (any HistoryStore & NotificationLedger)?, work: [Task<Void, Never>],
                 url: String, address: String) {
        self.server = server
        self.history = history
        self.work = work
        self.url = url
        self.address = address
    }

    /// The heartbeat panels of the deck served, in its order.
    public func heartbeatPanels() async -> [Panel] {
        let deck = server.deck
        let pinged = Set(deck.pingTargets.values)
        var panels: [Panel] = []
        for id in deck.panelIds where pinged.contains(id) {
            if let panel = await deck.declaration(of: id) { panels.append(panel) }
        }
        return panels
    }

    /// Stops serving; a delivery answered meanwhile is forgotten in the history, not sent again
    /// by the next run.
    public func stop() async {
        for task in work { task.cancel() }
        await server.stop(waitingForDeliveries: .milliseconds(300))
        history?.close()
    }

    /// The history store `--cluster` or `--data` names (by default a folder beside the deck file,
    /// or the demo's), or nil for none.
    private static func openHistory(_ settings: Settings) throws(Failure) -> (any HistoryStore & NotificationLedger)? {
        let retention = settings.deckFile?.file.historyRetention ?? HistoryRetention()
        if let url = settings.postgres {
            var configuration = PostgresHistoryStore.Configuration()
            configuration.retention = retention
            if settings.cluster != nil {
                // The next leader of the cluster starts the deck from it: a short wait loses less.
                configuration.flushInterval = .milliseconds(200)
                // A member of a cluster writes only while it leads.
                configuration.waitsToWrite = true
            }
            do {
                return try PostgresHistoryStore(url: url, configuration: configuration)
            } catch {
                throw Failure(description: error.description, status: 2)
            }
        }
        guard let folder = settings.folder else { return nil }
        do {
            return try HistoryFolder.open(folder, retention: retention)
        } catch {
            throw Failure(description: error.description, status: 2)
        }
    }

    /// The ping keys kept in the history's folder; none kept without one. With a history in
    /// PostgreSQL there is no folder, and in a cluster every process must answer the same ping
    /// URL: the deck file sets every key there.
    private static func pingKeys(_ settings: Settings) throws(Failure) -> PingKeys {
        if settings.postgres != nil, let unset = settings.deckFile?.file.panelsWithoutPingKeys, !unset.isEmpty {
            throw Failure(description: "\(settings.deckFile!.path): heartbeat panels \(unset.joined(separator: ", ")) need "
                          + "a key: in their heartbeat with a history in PostgreSQL (--cluster, or --data URL), "
                          + "where no folder keeps one and every process answers the same ping URL",
                          status: 2)
        }
        do {
            return try PingKeys(folder: settings.folder)
        } catch {
            throw Failure(description: error.description, status: 2)
        }
    }

    /// The demo's backup job's ping key, kept with the demo's history so that its URL holds
    /// across restarts; for the run only with no history folder (none, or PostgreSQL, where in a
    /// cluster every process would make a key of its own: a deck file sets the one they all answer).
    private static func demoPingKey(_ settings: Settings) throws(Failure) -> String {
        do {
            var keys = try PingKeys(folder: settings.folder)
            return try keys.key(for: DemoDeck.backupId)
        } catch {
            throw Failure(description: error.description, status: 2)
        }
    }

    private static func keepPingKeys(_ session: DeckFileSession) async throws(Failure) {
        do {
            try await session.keepPingKeys()
        } catch {
            throw Failure(description: error.description, status: 2)
        }
    }

    /// The processes sharing the deck through the PostgreSQL at `url` (a cluster of one, when alone).
    private static func joinable(_ url: String) throws(Failure) -> PostgresCluster {
        do {
            return try PostgresCluster(url: url)
        } catch {
            throw Failure(description: error.description, status: 2)
        }
    }
}
