/// Strong entity tags for bytes that never change while the server runs.
enum ETag {
    /// A quoted 64-bit FNV-1a hash of the bytes, with their length.
    static func strong(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return "\"\(String(bytes.count, radix: 16))-\(String(hash, radix: 16))\""
    }

    /// Whether an `If-None-Match` header names `etag` (or is `*`); weak tags compare weakly.
    static func matches(_ etag: String, ifNoneMatch header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmed()
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
