import Postgres

/// Where a PostgreSQL history store is: a `postgres://` or `postgresql://` URL without a
/// password, and the server as messages name it.
public struct PostgresStoreAddress: Sendable {
    public let url: String
    /// `host:port/database`, for messages and the trouble card.
    public let server: String

    /// Whether `text` names a PostgreSQL database by its scheme (rather than, say, a folder).
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Checks `url`.
    ///
    /// - Throws: ``PostgresStoreError/invalidURL(reason:)`` for another scheme or a URL libpq
    ///   cannot read, ``PostgresStoreError/passwordInURL(server:)`` when it holds a password.
    public init(_ url: String) throws(PostgresStoreError) {
        guard Self.isURL(url) else {
            throw .invalidURL(reason: "it starts with neither")
        }
        let parsed: PostgresConnectionString
        do {
            parsed = try PostgresConnectionString(url)
        } catch {
            // libpq's reason may quote the URL, password and all.
            throw .invalidURL(reason: "libpq cannot read it")
        }
        server = parsed.server
        guard !parsed.hasPassword else { throw .passwordInURL(server: server) }
        self.url = url
    }
}
