import StateDeckServer
import StateDeckApp

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Adds a caller to an access file: the token on standard output, alone, so that a script can
/// take it (`TOKEN=$(statedeck token add …)`); what to do with it on standard error.
enum TokenAdd {
    static func run(_ options: TokenAddOptions) -> Never {
        // `TokenAddOptions.validate()` checked the role.
        let role = AccessRole(rawValue: options.role)!
        let token: AccessToken
        do {
            token = try AccessFile.add(name: options.name, role: role, to: options.access)
        } catch {
            Launcher.fail(error.description, status: 2)
        }
        print(token)
        Launcher.warn("""
            added \(options.name) (\(role.rawValue)) to \(options.access). The token above is shown this once; \
            the file keeps only its SHA-256. Give it to \(options.name): a browser opens the dashboard's address \
            with ?token=TOKEN once, a script sends Authorization: Bearer TOKEN. A running statedeck reads the file \
            at start: restart it.
            """)
        exit(0)
    }
}
