import ArgumentParser
import StateDeckServer

/// `statedeck token`: the access file's entries. Parsing only: `TokenAdd` does the work.
struct TokenOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Manage the tokens of an access file (--access).",
        subcommands: [TokenAddOptions.self]
    )
}

/// `statedeck token add --access FILE NAME --role ROLE`.
struct TokenAddOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Make a token for NAME, print it once on standard output and add its entry to the access file.",
        usage: "statedeck token add --access <file> <name> --role <role>",
        discussion: "The file keeps only the token's SHA-256 and is created with mode 0600 when missing. A name listed already is refused (status 2). A running server reads the file at start: restart it."
    )

    @Option(name: .long, help: ArgumentHelp("The access file to add the entry to.", valueName: "file"))
    var access: String

    @Argument(help: ArgumentHelp("Who the token is for: 1 to 64 letters, digits, '.', '_', '-' or '@'; actions are signed with it.", valueName: "name"))
    var name: String

    @Option(name: .long, help: ArgumentHelp("viewer (reads), operator (also acts) or designer (also forces debug states).", valueName: "role"))
    var role: String

    func validate() throws {
        guard AccessRole(rawValue: role) != nil else {
            throw ValidationError("--role must be viewer, operator or designer, not \(role)")
        }
    }
}
