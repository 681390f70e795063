import ArgumentParser
import StateDeckServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// A bad flag is exit status 2 with the reason on standard error (PROTOCOL.md); help is status 0.
do {
    // A subcommand's options that share a name with the server's (the probe's `--config`, check's
    // `--data` and `--access`, token add's `--access`) are its own: parsed from the root, the
    // server's options of those names took them. LaunchArguments, not CommandLine.arguments
    // (which a preloaded library can empty), everywhere, ArgumentParser's default included.
    let arguments = Array(LaunchArguments.all.dropFirst())
    var command: any ParsableCommand = if let own = ownRoot(arguments.first) {
        try own.parseAsRoot(Array(arguments.dropFirst()))
    } else {
        try Options.parseAsRoot(arguments)
    }
    switch command {
    case let check as CheckOptions:
        DeckFileCheck.run(check)
    case let add as TokenAddOptions:
        TokenAdd.run(add)
    case let probe as ProbeOptions:
        await DeckProbe.run(probe)
    case let options as Options:
        await Launcher(options: options).run()
    default:
        // `--help` and `help`: ArgumentParser's own command, which asks for its text by throwing.
        try command.run()
    }
} catch {
    let command = ownRoot(LaunchArguments.all.dropFirst().first) ?? Options.self
    if command.exitCode(for: error) == .success {
        print(command.fullMessage(for: error))
        exit(0)
    }
    Launcher.fail(command.fullMessage(for: error), status: 2)
}

/// The subcommand named `name` that is parsed as a root of its own, or nil for the server's options.
func ownRoot(_ name: String?) -> (any ParsableCommand.Type)? {
    [CheckOptions.self, ProbeOptions.self, TokenOptions.self].first { $0.configuration.commandName == name }
}
