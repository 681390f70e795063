import Foundation
import Locking
import Logging
import StateDeck
import StateDeckServer

/// Turns parsed options into a running dashboard, and stops it on SIGINT or SIGTERM.
struct Launcher {
    let options: Options

    func run() async -> Never {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let configuration = serverConfiguration()
        let selfURL = Locked<URL?>(nil)
        let deck = DeckLoader.demo(seed: options.seed, selfURL: selfURL)
        let server: DeckServer
        let port: Int
        do {
            server = try await DeckServer(deck: deck, configuration: configuration)
            port = try await server.start()
        } catch {
            Self.fail("cannot serve on \(options.host):\(options.port): \(error)", status: 1)
        }
        let url = configuration.url(port: port)
        selfURL.withLock { $0 = URL(string: url) }
        print("StateDeck serving on \(url)")
        fflush(nil)
        if options.open {
            Browser.open(url)
        }

        let signal = await TerminationSignal.next()
        Logger(label: "statedeck").info("signal \(signal): stopping")
        // PROTOCOL.md promises exit within 2 s, whatever a stuck loader does.
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.8) { exit(0) }
        await server.stop()
        exit(0)
    }

    private func serverConfiguration() -> ServerConfiguration {
        guard let publicDirectory = PublicDirectory.locate(override: options.public) else {
            Self.fail("cannot find the page folder Public/; give it with --public DIR", status: 2)
        }
        var configuration = ServerConfiguration(publicDirectory: publicDirectory)
        configuration.host = options.host
        configuration.port = options.port
        configuration.debug = options.debug
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

    /// Prints `statedeck: message` on standard error and exits.
    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("statedeck: \(message)\n".utf8))
        exit(status)
    }
}
