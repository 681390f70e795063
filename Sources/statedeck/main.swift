import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// A bad flag is exit status 2 with the reason on standard error (PROTOCOL.md); help is status 0.
let options: Options
do {
    options = try Options.parse()
} catch {
    if Options.exitCode(for: error) == .success {
        print(Options.fullMessage(for: error))
        exit(0)
    }
    Launcher.fail(Options.fullMessage(for: error), status: 2)
}
await Launcher(options: options).run()
