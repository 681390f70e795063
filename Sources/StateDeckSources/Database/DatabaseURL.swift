/// A database server's address as a deck file writes it, `postgres://app:secret@db:5432/app`,
/// `mysql://…`, `redis://:secret@cache:6379/2`, split into its parts. The password (most often a
/// `${VAR}` substituted from the environment) is never shown: ``masked`` writes `***` for it.
public struct DatabaseURL: Sendable, Hashable {
    /// Lowercase: `postgres`, `postgresql`, `mysql`, `mariadb`, `redis`.
    public var scheme: String
    public var user: String?
    public var password: String?
    /// A name or an address; an IPv6 address without its brackets.
    public var host: String
    public var port: Int
    /// The path after the host without its `/`, percent-decoded; nil when there is none.
    public var database: String?
    /// The query's `name=value` pairs, in their order: settings of the client library.
    public var parameters: [Parameter]

    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    public init(scheme: String, user: String? = nil, password: String? = nil, host: String, port: Int,
                database: String? = nil, parameters: [Parameter] = []) {
        self.scheme = scheme
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.parameters = parameters
    }

    /// Reads `text`, whose scheme must be one of `schemes`; its port is `defaultPort` unless it
    /// gives one. The user info ends at the last `@`, so a password holding one needs no escape;
    /// each part is percent-decoded.
    init(parsing text: String, schemes: [String], defaultPort: Int) throws(Problem) {
        guard let separator = text.firstRange(of: "://"),
              schemes.contains(text[..<separator.lowerBound].lowercased()) else {
            throw Problem("must be a URL like \(schemes[0])://user:${PASSWORD}@host:\(defaultPort)")
        }
        scheme = text[..<separator.lowerBound].lowercased()
        var rest = Substring(text[separator.upperBound...])
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            let name = Self.decoded(userInfo[..<(colon ?? userInfo.endIndex)])
            user = name.isEmpty ? nil : name
            // `user:@host`, a variable that was empty: no password, as libpq reads it too.
            password = colon.map { Self.decoded(userInfo[userInfo.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let query = rest.firstIndex(of: "?")
        let path = rest[..<(query ?? rest.endIndex)].firstIndex(of: "/")
        let authority = rest[..<(path ?? query ?? rest.endIndex)]
        var portText: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { host = "" }
        } else if let colon = authority.firstIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { throw Problem("needs a host, like \(scheme)://user:${PASSWORD}@host:\(defaultPort)") }
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else {
                throw Problem("has no port from 1 to 65535 after \(host):")
            }
            port = number
        } else {
            port = defaultPort
        }
        let name = path.map { Self.decoded(rest[rest.index(after: $0)..<(query ?? rest.endIndex)]) } ?? ""
        database = name.isEmpty ? nil : name
        parameters = try query.map { start throws(Problem) in
            try rest[rest.index(after: start)...].split(separator: "&").map { pair throws(Problem) in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty else { throw Problem("has \(pair) in its query: write name=value") }
                return Parameter(name: Self.decoded(parts[0]), value: Self.decoded(parts[1]))
            }
        } ?? []
    }

    /// The URL to show, its password `***`: `postgres://app:***@db:5432/app`.
    public var masked: String {
        let secret = password == nil ? "" : ":***"
        let userInfo = user.map { "\($0)\(secret)@" } ?? (secret.isEmpty ? "" : "\(secret)@")
        let query = parameters.isEmpty ? "" : "?" + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(scheme)://\(userInfo)\(address)" + (database.map { "/\($0)" } ?? "") + query
    }

    /// `host:port`, an IPv6 address in brackets.
    public var address: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `part` percent-decoded, or as written when it is no valid percent-encoding (a `%` of a
    /// password substituted as it is).
    private static func decoded(_ part: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = part.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else {
                return String(part)
            }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self) ?? String(part)
    }

    /// Why a text is not such a URL, in the words of a deck-file problem.
    struct Problem: Error {
        let message: String

        init(_ message: String) {
            self.message = message
        }
    }
}
