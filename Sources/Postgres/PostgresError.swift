/// What a PostgreSQL session could not do, with libpq's message.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whether the session itself failed (the server is gone, refused us, the network broke) or
    /// the server refused one statement while the session stays usable.
    public enum Kind: Sendable, Equatable {
        case connection
        case statement
    }

    public var kind: Kind
    /// libpq's message, one line.
    public var message: String
    /// The SQLSTATE code of a refused statement (`23505` for a unique violation, say).
    public var sqlState: String?

    public init(kind: Kind, message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
    }

    public var description: String { message }
}

extension PostgresError {
    /// libpq's messages end with a newline and may span lines; a log line wants one.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }.joined(separator: " ")
    }
}
