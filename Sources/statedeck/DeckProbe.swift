import Logging
import StateDeck
import StateDeckCluster

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `statedeck probe`: the deck file's sources run here, their results reported under a location
/// until SIGINT or SIGTERM.
enum DeckProbe {
    static func run(_ options: ProbeOptions) async -> Never {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let termination = TerminationSignal(deadline: .milliseconds(1_800))
        let file = Launcher.loadDeckFile(options.config)
        let reporter: ProbeReporter
        do {
            reporter = try ProbeReporter(url: options.cluster, location: options.location,
                                         heartbeat: .milliseconds(Int64((options.heartbeat * 1000).rounded())))
        } catch {
            Launcher.fail("--cluster: \(error)", status: 1)
        }
        var configuration = Deck.Configuration()
        configuration.location = options.location
        let deck = file.makeDeck(configuration: configuration)
        let reporting = Task { await reporter.run(deck) }
        let watching = Task { await file.watchFiles(reloading: deck) }
        await deck.start()
        termination.serving()
        print("StateDeck probe \(options.location): checking \(DeckFileCheck.summary(of: file)) from \(options.config)")
        fflush(nil)

        let signal = await termination.next()
        Logger(label: "statedeck").info("signal \(signal): stopping")
        watching.cancel()
        reporting.cancel()
        await deck.stop()
        exit(0)
    }
}
