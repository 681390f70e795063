import ArgumentParser
import StateDeckCluster

/// `statedeck probe --cluster URL --config FILE --location NAME`: runs a deck file's sources here
/// and reports their results under a location to a cluster's store. Parsing only: `DeckProbe`
/// does the work.
struct ProbeOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Check a deck file's panels from this place and report the results to a cluster's PostgreSQL store.",
        usage: "statedeck probe --cluster <url> --config <file> --location <name> [--heartbeat <seconds>]",
        discussion: """
            The deck file is read exactly as start-up reads it and its sources run here; no port is bound, \
            no notification sent and no history kept. The server leading the cluster shows each panel \
            per location; a probe that stops reporting shows as no data.
            """
    )

    @Option(name: .customLong("cluster"), help: ArgumentHelp("The cluster's PostgreSQL database (postgres://…).", valueName: "url"))
    private var clusterOption: String?

    /// --cluster's older name, still read.
    @Option(name: .customLong("store"), help: .hidden)
    private var store: String?

    /// The cluster's database: `--cluster`, or `--store` as earlier versions named it.
    var cluster: String { clusterOption ?? store ?? "" }

    @Option(name: .long, help: ArgumentHelp("The deck file (YAML or JSON) whose panels to check.", valueName: "file"))
    var config: String

    @Option(name: .long, help: ArgumentHelp("This place's name: a-z, 0-9, '-', '_' and '.'.", valueName: "name"))
    var location: String

    @Option(name: .long, help: ArgumentHelp("Seconds between two heartbeats to the store (0.1 to 60).", valueName: "seconds"))
    var heartbeat = 2.0

    func validate() throws {
        if let problem = ProbeReporter.problem(withLocation: location) {
            throw ValidationError("--location \(problem)")
        }
        // The URL may hold a password: it is never repeated.
        guard clusterOption == nil || store == nil else {
            throw ValidationError("--store is --cluster's older name: give one")
        }
        guard clusterOption != nil || store != nil else {
            throw ValidationError("Missing expected argument '--cluster <url>'")
        }
        guard cluster.hasPrefix("postgres://") || cluster.hasPrefix("postgresql://") else {
            throw ValidationError("--cluster must be a PostgreSQL URL, starting with postgres:// or postgresql://")
        }
        guard (0.1...60).contains(heartbeat) else {
            throw ValidationError("--heartbeat must be between 0.1 and 60 seconds, not \(heartbeat)")
        }
    }
}
