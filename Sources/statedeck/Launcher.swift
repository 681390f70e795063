import FoundationEssentials
import Logging
import StateDeckApp
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
        var settings = Dashboard.Settings(server: serverConfiguration())
        settings.deckFile = options.config.map { (path: $0, file: Self.loadDeckFile($0)) }
        settings.seed = options.seed
        settings.data = options.data
        settings.cluster = options.cluster
        settings.replay = options.replay.map { (path: $0, fixture: Self.loadFixture($0)) }
        let dashboard: Dashboard
        do {
            dashboard = try await Dashboard.start(settings)
        } catch {
            Self.fail(error.description, status: error.status)
        }
        termination.serving()
        print("StateDeck serving on \(dashboard.url)")
        // The demo's heartbeat has a key StateDeck made, and no deck file to `check` for its URL.
        if options.config == nil, options.replay == nil { PingURLs.print(PingURLs.lines(of: await dashboard.heartbeatPanels(), url: dashboard.address)) }
        fflush(nil)
        if options.open {
            Browser.open(dashboard.url)
        }
        let signal = await termination.next()
        Logger(label: "statedeck").info("signal \(signal): stopping")
        await dashboard.stop()
        exit(0)
    }

    private func serverConfiguration() -> ServerConfiguration {
        let publicDirectory = options.public.map { URL(fileURLWithPath: $0).standardizedFileURL }
        if let publicDirectory {
            guard FileManager.default.fileExists(atPath: publicDirectory.appendingPathComponent("index.html").path) else {
                Self.fail("--public: \(publicDirectory.path) holds no index.html; give the page's folder, or leave --public out "
                          + "to serve the page built into statedeck", status: 2)
            }
            Logger(label: "statedeck").notice("serving the page from \(publicDirectory.path), not the one built in")
        }
        var configuration = ServerConfiguration(publicDirectory: publicDirectory)
        configuration.host = options.host
        configuration.port = options.port
        configuration.debug = options.debug
        configuration.ownPanelID = StateDeckPanel.id
        configuration.publicAddresses = options.publicURL.compactMap { try? PublicAddress(parsing: $0) }
        configuration.trustedProxies = options.trustedProxy.compactMap { try? TrustedProxy(parsing: $0) }
        if let access = options.access {
            configuration.access = Self.loadAccessFile(access)
        } else if let tokenFile = options.tokenFile {
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

    /// The fixture file at `path`; one that cannot be served ends the process with status 2,
    /// naming the file, the key and what is wrong.
    static func loadFixture(_ path: String) -> DeckFixture {
        do {
            return try DeckFixture.read(path: path)
        } catch {
            fail(error.description, status: 2)
        }
    }

    /// The access file at `path`; one with problems, or listing no one, ends the process with
    /// status 2, each problem on a line naming the file and line.
    static func loadAccessFile(_ path: String) -> AccessList {
        let list: AccessList
        do {
            list = try AccessFile.load(path: path)
        } catch {
            fail("the access file has problems:\n\(error.description)", status: 2)
        }
        guard !list.entries.isEmpty else {
            fail("the access file \(path) lists no one: add a token with statedeck token add --access \(path) NAME --role ROLE", status: 2)
        }
        return list
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
