/// Who may reach a dashboard that asks for a token: each person or script by name, with a role and
/// the digest of their token (never the token itself). `--access FILE` reads one; `--token-file`
/// and a generated token are a list of one, named ``singleTokenName`` with the operator role.
public struct AccessList: Sendable {
    public struct Entry: Sendable {
        public let name: String
        public let role: AccessRole
        public let digest: TokenDigest

        public init(name: String, role: AccessRole, digest: TokenDigest) {
            self.name = name
            self.role = role
            self.digest = digest
        }
    }

    public let entries: [Entry]

    /// The name an action made with a `--token-file`'s or a generated token is signed with.
    public static let singleTokenName = "token"

    /// `entries`, whose names must differ (a file reader reports a name given twice with its line).
    public init(_ entries: [Entry]) {
        precondition(Set(entries.map(\.name)).count == entries.count, "an access list names each caller once")
        self.entries = entries
    }

    /// One token, with the operator role: a `--token-file` or the token generated for a server
    /// bound beyond loopback.
    public init(token: AccessToken) {
        self.init([Entry(name: Self.singleTokenName, role: .operator, digest: TokenDigest(of: token.value))])
    }

    /// Whether a name may be listed: 1 to 64 letters, digits, `.`, `_`, `-` or `@`, so that it
    /// reads the same in a YAML line, a log and a signed action.
    public static func isValidName(_ name: some StringProtocol) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || "._-@".utf8.contains(byte)
        }
    }

    /// Who `token` belongs to, or nil. Every entry's digest is compared, each in constant time,
    /// so the answer's time tells nothing of which entry, or which byte, differed.
    func caller(presenting token: some StringProtocol) -> Caller? {
        let digest = TokenDigest(of: token)
        var found: Entry?
        for entry in entries where entry.digest.matches(digest) {
            found = entry
        }
        return found.map { Caller(name: $0.name, role: $0.role) }
    }
}
