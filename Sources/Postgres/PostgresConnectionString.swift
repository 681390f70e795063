import CPostgres

/// What a `postgres://` URL or `key=value` string says, as libpq reads it (`PQconninfoParse`),
/// without connecting: to name the server in a message, and to tell whether it holds a password.
public struct PostgresConnectionString: Sendable {
    /// The settings written in the string, by libpq's keyword (`host`, `port`, `dbname`, `user`…).
    public let settings: [String: String]

    /// Parses `connection`.
    ///
    /// - Throws: ``PostgresError`` of kind `.connection` with libpq's reason when it is not a
    ///   connection string libpq reads.
    public init(_ connection: String) throws(PostgresError) {
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connection, &failure) else {
            let message = failure.map { PostgresError.oneLine(String(cString: $0)) } ?? "out of memory"
            if let failure { PQfreemem(failure) }
            throw PostgresError(kind: .connection, message: message)
        }
        defer { PQconninfoFree(options) }
        settings = Self.values(of: options)
    }

    /// Whether the string itself holds a password (in the URL's user part or as `password=`).
    public var hasPassword: Bool { settings["password"] != nil }

    /// The server as a person reads it, `host:port/database`, with what the string leaves out
    /// taken as libpq takes it (`PGHOST`, `PGPORT`, `PGDATABASE`, the user's name…). Never the password.
    public var server: String {
        let defaults = Self.defaults()
        func setting(_ key: String) -> String? { settings[key] ?? defaults[key] }
        let host = setting("host") ?? setting("hostaddr") ?? "local socket"
        let port = setting("port") ?? "5432"
        let database = setting("dbname") ?? setting("user") ?? "?"
        return "\(host):\(port)/\(database)"
    }

    /// libpq's defaults, environment variables included (`PQconndefaults`).
    private static func defaults() -> [String: String] {
        guard let options = PQconndefaults() else { return [:] }
        defer { PQconninfoFree(options) }
        return values(of: options)
    }

    /// The keywords that have a value in a `PQconninfoOption` array.
    private static func values(of options: UnsafeMutablePointer<PQconninfoOption>) -> [String: String] {
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val, value.pointee != 0 {
                values[String(cString: keyword)] = String(cString: value)
            }
            option += 1
        }
        return values
    }
}
