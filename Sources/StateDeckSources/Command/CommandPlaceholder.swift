/// A value a command is handed when it runs, such as a notification's message or an item's id:
/// always in its environment variable, never in an argument, whatever the program.
///
/// No program can be told apart by name as one that runs an argument as code: `sh -c` does, and
/// so do `timeout 10 sh -c`, `env bash -c`, `python3 -c`, `xargs`, `ssh host` and `find -exec`.
/// So no value ever becomes an argument, and a deck file that writes `{name}` in one, expecting it
/// filled, is refused, naming the variable to read instead. A program and its arguments are the
/// author's own text; a value reaches the program only in the environment, which nothing runs
/// unless the author's own code chooses to.
public struct CommandPlaceholder: Sendable, Hashable {
    /// What an author would write in an argument to have the value filled in: `{message}`.
    public let name: String
    /// The environment variable that holds the value: `STATEDECK_MESSAGE`.
    public let variable: String

    public init(name: String, variable: String) {
        self.name = "{\(name)}"
        self.variable = variable
    }

    /// A notification's one-line message.
    public static let message = CommandPlaceholder(name: "message", variable: "STATEDECK_MESSAGE")
    /// `failure`, `reminder` or `recovery`.
    public static let event = CommandPlaceholder(name: "event", variable: "STATEDECK_EVENT")
    /// The panel's id.
    public static let panel = CommandPlaceholder(name: "panel", variable: "STATEDECK_PANEL")
    /// The panel's title.
    public static let title = CommandPlaceholder(name: "title", variable: "STATEDECK_TITLE")
    /// The id of the list item an item action runs on.
    public static let item = CommandPlaceholder(name: "item", variable: "STATEDECK_ITEM_ID")

    /// What a notify command is handed.
    public static let notification: [CommandPlaceholder] = [.message, .event, .panel, .title]

    /// Those of `placeholders` that `argument` writes, in the order it writes them.
    static func written(in argument: String, of placeholders: [CommandPlaceholder]) -> [CommandPlaceholder] {
        placeholders.compactMap { placeholder in argument.firstRange(of: placeholder.name).map { (placeholder, $0.lowerBound) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// Why an argument writing `written` is refused, and what to read instead: `"{message}" is
    /// not filled into arguments; read $STATEDECK_MESSAGE instead (for example shell: 'echo
    /// "$STATEDECK_MESSAGE"')`.
    static func refusal(of written: [CommandPlaceholder]) -> String {
        let names = written.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let variables = written.map { "$\($0.variable)" }.joined(separator: ", ")
        let example = written.first.map { " (for example shell: 'echo \"$\($0.variable)\"')" } ?? ""
        return "\(names) \(written.count == 1 ? "is" : "are") not filled into arguments; read \(variables) instead\(example)"
    }
}

extension CommandSpec {
    /// The command as run with `values`, each in its variable; its arguments stay as written.
    public func giving(_ values: [CommandPlaceholder: String]) -> CommandSpec {
        var command = self
        for (placeholder, value) in values { command.environment[placeholder.variable] = value }
        return command
    }
}
