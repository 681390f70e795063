import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// A bad flag is exit status 2 with the reason on standard error (PROTOCOL.md); help is status 0.
do {
    var command = try Options.parseAsRoot()
    switch command {
    case let check as CheckOptions:
        DeckFileCheck.run(check.file)
    case let options as Options:
        await Launcher(options: options).run()
    default:
        // `--help` and `help`: ArgumentParser's own command, which asks for its text by throwing.
        try command.run()
    }
} catch {
    if Options.exitCode(for: error) == .success {
        print(Options.fullMessage(for: error))
        exit(0)
    }
    Launcher.fail(Options.fullMessage(for: error), status: 2)
}
