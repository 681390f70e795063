import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// A bad flag is exit status 2 with the reason on standard error (PROTOCOL.md); help is status 0.
do {
    // The probe's `--config` is its own: parsed from the root, the server's `--config` took it.
    let arguments = Array(CommandLine.arguments.dropFirst())
    var command: any ParsableCommand = if arguments.first == ProbeOptions.configuration.commandName {
        try ProbeOptions.parseAsRoot(Array(arguments.dropFirst()))
    } else {
        try Options.parseAsRoot()
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
    let command: any ParsableCommand.Type = CommandLine.arguments.dropFirst().first == ProbeOptions.configuration.commandName
        ? ProbeOptions.self : Options.self
    if command.exitCode(for: error) == .success {
        print(command.fullMessage(for: error))
        exit(0)
    }
    Launcher.fail(command.fullMessage(for: error), status: 2)
}
