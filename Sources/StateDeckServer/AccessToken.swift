#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The secret that guards a dashboard reachable by others (bound beyond loopback, or a shared
/// machine): visits bring it once in `?token=`, then in a cookie; scripts send it as a bearer.
public struct AccessToken: Sendable, CustomStringConvertible {
    let value: String

    /// A fresh token of 32 random bytes (the system's generator), in base64url without padding:
    /// 43 characters that travel in a URL, a cookie and a header as they are.
    public static func generate() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return AccessToken(value: base64URL(bytes))
    }

    /// RFC 4648's base64url alphabet, without `=` padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var text: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let bits = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for index in 0...chunk.count { text.append(alphabet[Int(bits >> (18 - 6 * UInt32(index)) & 0x3F)]) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The token in `path`, a ``PrivateFile``. Never taken from the command line, where `ps` shows it.
    public static func read(from path: String) throws(AccessTokenError) -> AccessToken {
        let text: String
        do {
            text = try PrivateFile.text(at: path)
        } catch {
            switch error {
            case .unreadable(let reason): throw .unreadable(path, reason)
            case .notAFile: throw .notAFile(path)
            case .tooOpen(let mode): throw .tooOpen(path, mode)
            case .notUTF8: throw .unreadable(path, "not UTF-8 text")
            }
        }
        let value = text.trimmed()
        guard value.count >= 16, !value.contains(where: { $0.isWhitespace }) else { throw .tooShort(path) }
        return AccessToken(value: value)
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
