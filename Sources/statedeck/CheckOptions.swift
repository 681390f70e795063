import ArgumentParser

/// `statedeck check FILE`, for editors and CI. Parsing only: `DeckFileCheck` does the work.
struct CheckOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a deck file and exit: 0 when it is valid, 2 with its problems on standard error.",
        usage: "statedeck check <file> [--data <dir>] [--url <url>] [--access <file>]",
        discussion: "The deck file is read exactly as start-up reads it; no port is bound, no history opened and no source run."
    )

    @Argument(help: ArgumentHelp("The deck file (YAML or JSON) to validate.", valueName: "file"))
    var file: String

    @Option(name: .long, help: ArgumentHelp(
        "The data folder whose ping keys the heartbeat URLs show (default: the one statedeck uses for the file).",
        valueName: "dir"))
    var data: String?

    @Option(name: .long, help: ArgumentHelp("Where StateDeck answers, for the heartbeat URLs.", valueName: "url"))
    var url = "http://127.0.0.1:8080"

    @Option(name: .long, help: ArgumentHelp("An access file to validate too, as start-up's --access reads it.", valueName: "file"))
    var access: String?
}
