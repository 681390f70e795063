import FoundationEssentials
import Locking
import Logging
import StateDeck
import StateDeckApp
import StateDeckCluster
import StateDeckHistory
import StateDeckNotifications
import StateDeckPostgres
import StateDeckSQLite
import StateDeckServer
import StateDeckSources

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns parsed options into a running dashboard, and stops it on SIGINT or SIGTERM.
struct Launcher {
    let options: Options

    func run() async -> Never {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        // PROTOCOL.md promises exit within 2 s, whatever a stuck loader does.
        let termination = TerminationSignal(deadline: .milliseconds(1_800))
        let configuration = serverConfiguration()
        let running = Locked<DeckServer?>(nil)
        let deckFile = options.config.map { (path: $0, file: Self.loadDeckFile($0)) }
        // Opened before the deck, whose notifications keep what was told and what is still to
        // deliver in it.
        let history = openHistory(retention: deckFile?.file.historyRetention ?? HistoryRetention())
        let session = deckFile.map { DeckFileSession(file: $0.file, path: $0.path, server: running) }
        let seed = options.seed
        let makeDeck: @Sendable () async -> Deck = {
            if let session { await session.makeDeck() } else { ServedDemoDeck.make(seed: seed, server: running) }
        }
        let deck = await makeDeck()
        let server: DeckServer
        let port: Int
        do {
            server = try await DeckServer(deck: deck, configuration: configuration, history: history,
                                          notificationLedger: history, onNotificationDelivery: session.map { $0.count },
                                          host: openCluster().map { ClusterDeckHost(cluster: $0, makeDeck: makeDeck) })
            port = try await server.start()
        } catch let error as StaticFilesError {
            Self.fail("--public: \(error)", status: 2)
        } catch {
            Self.fail("cannot serve on \(options.host):\(options.port): \(error)", status: 1)
        }
        let url = configuration.url(port: port)
        running.withLock { $0 = server }
        print("StateDeck serving on \(url)")
        fflush(nil)
        if options.open {
            Browser.open(url)
        }
        let reloading = session.map { session in Task { await session.run(serving: server) } }
        // What probes elsewhere report, shown on each panel while this process runs the deck.
        let probing = options.store.map { store in Task { await ProbeReports(url: store).run(serving: server) } }

        let signal = await termination.next()
        Logger(label: "statedeck").info("signal \(signal): stopping")
        reloading?.cancel()
        probing?.cancel()
        // A delivery answered meanwhile is forgotten in the history, not sent again by the next run.
        await server.stop(waitingForDeliveries: .milliseconds(300))
        history?.close()
        exit(0)
    }

    /// The history store `--store` or `--data` names (by default a folder beside the deck file, or
    /// the demo's); one that cannot be used ends the process with status 2, naming it (a server
    /// without its password) and what to do.
    private func openHistory(retention: HistoryRetention) -> (any HistoryStore & NotificationLedger)? {
        if let store = options.store {
            var configuration = PostgresHistoryStore.Configuration()
            configuration.retention = retention
            // The next leader of the cluster starts the deck from it: a short wait loses less.
            configuration.flushInterval = .milliseconds(200)
            // `--store` makes this process a member of a cluster: it writes only while it leads.
            configuration.waitsToWrite = true
            do {
                return try PostgresHistoryStore(url: store, configuration: configuration)
            } catch {
                Self.fail(error.description, status: 2)
            }
        }
        guard let folder = HistoryFolder.path(option: options.data, deckFile: options.config) else { return nil }
        do {
            return try HistoryFolder.open(folder, retention: retention)
        } catch {
            Self.fail(error.description, status: 2)
        }
    }

    /// With `--store`, the processes sharing the deck through that PostgreSQL (a cluster of one,
    /// when alone); one that cannot be joined ends the process with status 2.
    private func openCluster() -> PostgresCluster? {
        guard let store = options.store else { return nil }
        do {
            return try PostgresCluster(url: store)
        } catch {
            Self.fail(error.description, status: 2)
        }
    }

    private func serverConfiguration() -> ServerConfiguration {
        guard let publicDirectory = PublicDirectory.locate(override: options.public),
              FileManager.default.fileExists(atPath: publicDirectory.appendingPathComponent("index.html").path)
        else {
            let looked = options.public.map { "\($0) holds no index.html" } ?? "cannot find the page folder Public/"
            Self.fail("\(looked); give the page folder with --public DIR", status: 2)
        }
        var configuration = ServerConfiguration(publicDirectory: publicDirectory)
        configuration.host = options.host
        configuration.port = options.port
        configuration.debug = options.debug
        configuration.ownPanelID = StateDeckPanel.id
        configuration.publicAddresses = options.publicURL.compactMap { try? PublicAddress(parsing: $0) }
        if let tokenFile = options.tokenFile {
            do {
                configuration.token = try AccessToken.read(from: tokenFile)
            } catch {
                Self.fail(error.description, status: 2)
            }
        } else if !configuration.isLoopback {
            configuration.token = AccessToken.generate()
        }
        return configuration
    }

    /// The deck file at `path`, read as start-up and `statedeck check` both read it; a file with
    /// problems ends the process with status 2, each problem on a line naming the file, line and key.
    static func loadDeckFile(_ path: String) -> DeckFile {
        do {
            return try DeckFile.load(path: path)
        } catch {
            fail("\(path) has problems:\n\(error.description)", status: 2)
        }
    }

    /// Prints `statedeck: message` on standard error and exits.
    static func fail(_ message: String, status: Int32) -> Never {
        warn(message)
        exit(status)
    }

    /// Prints `statedeck: message` on standard error.
    static func warn(_ message: String) {
        let line = Array("statedeck: \(message)\n".utf8)
        _ = write(STDERR_FILENO, line, line.count)
    }
}
