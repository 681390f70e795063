/// A value a command is handed when it runs, such as a notification's message or an item's id:
/// `{name}` in its arguments stands for it, and its environment variable always holds it.
///
/// | where `{name}` stands | what the command gets |
/// | --- | --- |
/// | in an argument of a program run directly (`run:`) | the value, in place of `{name}` |
/// | in the program itself (the first argument) | `{name}` as written: no text picks what runs |
/// | in a shell's script (`shell:`, or `sh -c SCRIPT` and the like in `run:`) | `{name}` as written, and a deck file that does it is refused: the script reads the variable (`"$STATEDECK_MESSAGE"`), so no text ever becomes code |
/// | anywhere | the variable |
public struct CommandPlaceholder: Sendable, Hashable {
    /// As written in an argument: `{message}`.
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

    /// What a notify command may name.
    public static let notification: [CommandPlaceholder] = [.message, .event, .panel, .title]
}

extension CommandSpec {
    /// The command as run with `values`: each `{name}` in an argument replaced by its value, but
    /// never in the program or a shell's script; every value also in its variable.
    public func giving(_ values: [CommandPlaceholder: String]) -> CommandSpec {
        var command = self
        let fills = Dictionary(uniqueKeysWithValues: values.map { ($0.key.name, $0.value) })
        let kept = [0, scriptIndex].compactMap(\.self)
        command.arguments = arguments.enumerated().map { index, argument in
            kept.contains(index) ? argument : Self.fill(argument, with: fills)
        }
        for (placeholder, value) in values { command.environment[placeholder.variable] = value }
        return command
    }

    /// `argument` with each `{name}` that `fills` knows replaced, in one pass: a value filled in
    /// (a title holding "{panel}", say) is never read again.
    static func fill(_ argument: String, with fills: [String: String]) -> String {
        var result = ""
        var rest = argument[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            if let close = rest[open...].firstIndex(of: "}"), let value = fills[String(rest[open...close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }

    /// Programs that run the argument after `-c` as a script.
    static let shells: Set<String> = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"]

    /// The index of the argument a shell runs as code: the script of the `shell:` form
    /// (`/bin/sh -c SCRIPT`), or of `bash -c SCRIPT` and the like in a `run:` list, found as the
    /// shell finds it (the first argument after the options, one of which holds `c`); nil when
    /// no shell reads a script.
    var scriptIndex: Int? {
        guard let program = arguments.first?.split(separator: "/").last, Self.shells.contains(String(program)) else {
            return nil
        }
        var readsScript = false
        var index = 1
        while index < arguments.count {
            let option = arguments[index]
            guard option.count > 1, option.first == "-" || option.first == "+" else { break }
            index += 1
            if option == "--" { break }
            guard !option.hasPrefix("--") else { continue }
            if option.first == "-", option.contains("c") { readsScript = true }
            // `-o pipefail`, `-O extglob`: the option's name is the next argument.
            if option.last == "o" || option.last == "O" { index += 1 }
        }
        return readsScript && index < arguments.count ? index : nil
    }

    /// The placeholders of `placeholders` that the command's shell script names, which it must
    /// read from their variables instead.
    func placeholdersInScript(of placeholders: [CommandPlaceholder]) -> [CommandPlaceholder] {
        guard let scriptIndex else { return [] }
        return placeholders.filter { arguments[scriptIndex].contains($0.name) }
    }
}
