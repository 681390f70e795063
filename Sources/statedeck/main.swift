import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// A bad flag is exit status 2 with the reason on standard error (PROTOCOL.md); help is status 0.
do {
    // The probe's `--config` and token add's `--access` are their own: parsed from the root, the
    // server's options of those names took them.
    let arguments = Array(CommandLine.arguments.dropFirst())
    var command: any ParsableCommand = switch arguments.first {
    case ProbeOptions.configuration.commandName: try ProbeOptions.parseAsRoot(Array(arguments.dropFirst()))
    case TokenOptions.configuration.commandName: try TokenOptions.parseAsRoot(Array(arguments.dropFirst()))
    default: try Options.parseAsRoot()
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
    let command: any ParsableCommand.Type = switch CommandLine.arguments.dropFirst().first {
    case ProbeOptions.configuration.commandName: ProbeOptions.self
    case TokenOptions.configuration.commandName: TokenOptions.self
    default: Options.self
    }
    if command.exitCode(for: error) == .success {
        print(command.fullMessage(for: error))
        exit(0)
    }
    Launcher.fail(command.fullMessage(for: error), status: 2)
}
