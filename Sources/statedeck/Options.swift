import ArgumentParser
import StateDeckPostgres
import StateDeckServer

/// The command line of PROTOCOL.md. Parsing only: `Launcher` does the work.
struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statedeck",
        abstract: "A live dashboard of loading states, error cards and toasts, served on localhost.",
        // ArgumentParser's own line ends in `<subcommand>`, as if serving needed one.
        usage: "statedeck [<options>]\n  statedeck --replay <file> [<options>]\n  statedeck check <file>\n  statedeck probe --cluster <url> --config <file> --location <name>\n"
            + "  statedeck token add --access <file> <name> --role <role>",
        discussion: "Without --config it serves the built-in demo deck. 'statedeck check FILE' validates a deck file and exits.",
        version: Version.current,
        subcommands: [CheckOptions.self, ProbeOptions.self, TokenOptions.self]
    )

    @Option(name: .long, help: ArgumentHelp("A deck file (YAML or JSON).", valueName: "file"))
    var config: String?

    @Option(name: .long, help: "The address to bind. Anything but loopback exposes the dashboard.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to bind; 0 picks a free one.")
    var port = 8080

    @Option(name: .long, help: ArgumentHelp(
        "Keep every panel's history in this folder (SQLite), in the PostgreSQL database a postgres:// or postgresql:// URL names (this process alone writes it), or 'none' to keep it in memory only. Default: .statedeck beside the deck file; for the demo, $XDG_STATE_HOME/statedeck/demo.",
        valueName: "dir|url"))
    var data: String?

    @Option(name: .customLong("cluster"), help: ArgumentHelp(
        "Join the processes sharing this deck through the PostgreSQL database of this postgres:// or postgresql:// URL: one of them runs the deck and keeps the history there, every one serves it. The password comes from PGPASSWORD or a password file (PGPASSFILE, ~/.pgpass), never the URL.",
        valueName: "url"))
    private var clusterOption: String?

    /// --cluster's older name, still read.
    @Option(name: .customLong("store"), help: .hidden)
    private var store: String?

    /// The cluster to join: `--cluster`, or `--store` as earlier versions named it.
    var cluster: String? { clusterOption ?? store }

    @Flag(name: .long, help: "Allow forcing panel states from the page and /api/debug.")
    var debug = false

    @Option(name: .long, help: ArgumentHelp("Serve the page from this folder, read at start, instead of the one built in: for work on the page.", valueName: "dir"))
    var `public`: String?

    @Option(name: .long, help: ArgumentHelp(
        "An address people open the dashboard at in front of this server (a load balancer, a reverse proxy): its Host and Origin are accepted as this server's own. Repeat for several.",
        valueName: "url"))
    var publicURL: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "A reverse proxy in front of this server, by its address or a range (10.0.0.5, 10.0.0.0/8, fd00::/8): wrong tokens are counted by the client address it puts in X-Forwarded-For (the right-most one that is no trusted proxy), not by its own. X-Forwarded-For from anyone else is ignored. Repeat for several.",
        valueName: "addr|cidr"))
    var trustedProxy: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Require the token in this file (mode 0600) on every request. Beyond loopback a token is always required; without this file one is generated.",
        valueName: "file"))
    var tokenFile: String?

    @Option(name: .long, help: ArgumentHelp(
        "Require one of the tokens this access file lists (mode 0600; entries of a name, a role and the token's SHA-256, made with 'statedeck token add'). Each caller may do what their role allows: viewer reads, operator also acts (retry, recover, item actions, maintenance, incidents, test notifications), designer also forces debug states (with --debug). A --token-file's token is one operator's.",
        valueName: "file"))
    var access: String?

    @Flag(name: .long, help: "Open the dashboard in the default browser once it is served.")
    var open = false

    @Option(name: .long, help: ArgumentHelp(
        "Serve the moment this fixture file holds (GET /api/state?format=fixture writes one), frozen: no source runs, no history is written, nothing is notified; actions answer 409, debug states work with --debug.",
        valueName: "file"))
    var replay: String?

    @Option(name: .long, help: "Make the demo deck's simulated latency and failures repeatable.")
    var seed: UInt64?

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, not \(port)")
        }
        guard data?.isEmpty != true, data.map({ !$0.contains("://") || PostgresStoreAddress.isURL($0) }) ?? true else {
            throw ValidationError("--data must name a folder, none, or a PostgreSQL database (postgres:// or postgresql://)")
        }
        guard clusterOption == nil || store == nil else {
            throw ValidationError("--store is --cluster's older name: give one")
        }
        guard cluster == nil || data == nil else {
            throw ValidationError("--cluster and --data both say where the history is kept: give one (a cluster keeps it in its PostgreSQL)")
        }
        guard replay == nil || (config == nil && data == nil && cluster == nil && seed == nil) else {
            throw ValidationError("--replay serves a fixture alone: not with --config, --data, --cluster or --seed")
        }
        guard access == nil || tokenFile == nil else {
            throw ValidationError("--access and --token-file both say which tokens open the dashboard: give one (an access file lists as many as you need)")
        }
        guard !host.isEmpty else {
            throw ValidationError("--host must not be empty")
        }
        for url in publicURL {
            do {
                _ = try PublicAddress(parsing: url)
            } catch {
                throw ValidationError(error.description)
            }
        }
        for proxy in trustedProxy {
            do {
                _ = try TrustedProxy(parsing: proxy)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }
}
