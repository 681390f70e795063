/// Why a PostgreSQL history store cannot be opened. Each description names the server
/// (`host:port/database`, never a password) and what to do.
public enum PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a `postgres://` or `postgresql://` URL libpq reads.
    case invalidURL(reason: String)
    /// The URL holds a password, which belongs in `PGPASSWORD` or a password file.
    case passwordInURL(server: String)
    /// The server cannot be reached, or refused the session (authentication, no such database).
    case unreachable(server: String, reason: String)
    /// The server refused to make or read StateDeck's tables (permissions, say).
    case refused(server: String, reason: String)
    case newerSchema(server: String, version: Int, supported: Int)

    public var description: String {
        switch self {
        case .invalidURL(let reason):
            "a PostgreSQL database must be named by a postgres:// or postgresql:// URL: \(reason)"
        case .passwordInURL(let server):
            "the --store URL for \(server) holds a password: leave it out of the URL (command lines are seen by "
                + "others), and give it in PGPASSWORD or a password file (PGPASSFILE, or ~/.pgpass with mode 0600)."
        case .unreachable(let server, let reason):
            "cannot connect to PostgreSQL at \(server): \(sentence(reason)) Start the server or fix the --store URL; the "
                + "password comes from PGPASSWORD or a password file (PGPASSFILE, ~/.pgpass)."
        case .refused(let server, let reason):
            "PostgreSQL at \(server) refused StateDeck's tables: \(sentence(reason)) Give the user the right to create a "
                + "schema in that database, or name another database in --store."
        case .newerSchema(let server, let version, let supported):
            "PostgreSQL at \(server) holds a history written by a newer StateDeck (schema \(version); this one reads "
                + "up to \(supported)). It was left untouched; run the newer StateDeck, or name another database."
        }
    }

    /// libpq's reason as a sentence: some end in a question mark already.
    private func sentence(_ reason: String) -> String {
        reason.last.map { ".?!".contains($0) } == true ? reason : reason + "."
    }
}
