import StateDeck

/// What an access list keeps of a token: its SHA-256, written `sha256:` and 64 hex digits.
///
/// A plain digest, not a password hash (Argon2id, bcrypt): tokens are 32 random bytes, which no
/// guessing reaches through a fast hash; a password chosen by a person would need the slow one.
public struct TokenDigest: Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    /// The digest of `token`.
    public init(of token: some StringProtocol) {
        bytes = SHA256.digest(Array(token.utf8))
    }

    /// `text` read as `sha256:` and 64 hex digits (either case); nil for anything else, a bare
    /// token included.
    public init?(parsing text: some StringProtocol) {
        let prefix = "sha256:"
        guard text.hasPrefix(prefix) else { return nil }
        let hex = Array(text.utf8.dropFirst(prefix.utf8.count))
        guard hex.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = Self.nibble(hex[index]), let low = Self.nibble(hex[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether both are the same digest, in time that does not depend on where they differ.
    func matches(_ other: TokenDigest) -> Bool {
        var difference: UInt8 = 0
        for (mine, theirs) in zip(bytes, other.bytes) { difference |= mine ^ theirs }
        return difference == 0 && bytes.count == other.bytes.count
    }

    /// `sha256:` and the digest in lower-case hex, as an access file holds it.
    public var description: String {
        "sha256:" + bytes.lowercaseHex
    }
}
