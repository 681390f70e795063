#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The secret that guards a dashboard reachable by others (bound beyond loopback, or a shared
/// machine): visits bring it once in `?token=`, then in a cookie; scripts send it as a bearer.
public struct AccessToken: Sendable, CustomStringConvertible {
    let value: String

    /// A fresh token of 32 random bytes, hex-encoded.
    public static func generate() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return AccessToken(value: bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
    }

    /// The token in `path`, which only its owner may read or write (mode 0600): a token others
    /// can read guards nothing. Never taken from the command line, where `ps` shows it.
    public static func read(from path: String) throws(AccessTokenError) -> AccessToken {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(path, String(cString: strerror(errno))) }
        // A named pipe would block the read until something writes to it.
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path) }
        guard status.st_mode & 0o077 == 0 else { throw .tooOpen(path, status.st_mode & 0o777) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .unreadable(path, "not UTF-8 text")
        }
        let value = text.trimmed()
        guard value.count >= 16, !value.contains(where: { $0.isWhitespace }) else { throw .tooShort(path) }
        return AccessToken(value: value)
    }

    /// Whether `candidate` is the token, in time that does not depend on where they differ.
    func matches(_ candidate: String) -> Bool {
        let expected = Array(value.utf8), given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    /// The cookie carrying the token, named with the port so that two dashboards on one host
    /// (cookies ignore ports) do not overwrite each other's.
    static func cookieName(port: Int) -> String {
        "statedeck-token-\(port)"
    }

    public var description: String { value }
}

/// Why a `--token-file` cannot be used.
public enum AccessTokenError: Error, CustomStringConvertible {
    case unreadable(String, String)
    case notAFile(String)
    case tooOpen(String, mode_t)
    case tooShort(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the token file \(path): \(reason)"
        case .notAFile(let path):
            "the token file \(path) is not a regular file (a folder, named pipe or device)"
        case .tooOpen(let path, let mode):
            "the token file \(path) is readable by others (mode \(String(mode, radix: 8))); run chmod 600 \(path)"
        case .tooShort(let path):
            "the token file \(path) must hold one token of at least 16 characters"
        }
    }
}
