/// The decoded parts of a request target: origin-form (`/path?query`), or absolute-form
/// (`http://host:port/path?query`), which every HTTP/1.1 server must accept and whose authority
/// stands in for the `Host` header.
struct RequestTarget {
    let pathSegments: [String]
    let query: QueryItems
    /// The authority of an absolute-form target; nil for origin-form.
    let authority: String?

    init(parsing target: String) throws(HTTPRequest.TargetError) {
        var target = target
        self = try target.withUTF8 { bytes in
            Result { () throws(HTTPRequest.TargetError) in try RequestTarget(parsing: bytes) }
        }.get()
    }

    /// Scans the target's bytes in place: a string's bytes are valid UTF-8, so a part with no
    /// escape is one too (it ends at an ASCII byte) and becomes a string without a check.
    private init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(HTTPRequest.TargetError) {
        let (authority, pathStart) = try Self.authority(of: bytes)
        self.authority = authority
        let queryStart = bytes[pathStart...].firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = queryStart ?? bytes.endIndex
        var segments: [String] = []
        // An absolute-form target may leave its path out: it is `/`.
        var start = pathStart == pathEnd ? pathStart : pathStart + 1
        while true {
            let end = bytes[start..<pathEnd].firstIndex(of: UInt8(ascii: "/")) ?? pathEnd
            segments.append(try PercentDecoding.decode(.init(rebasing: bytes[start..<end]), plusIsSpace: false))
            guard end < pathEnd else { break }
            start = end + 1
        }
        pathSegments = segments
        guard let queryStart else {
            query = QueryItems()
            return
        }
        var items: [QueryItems.Item] = []
        for pair in bytes[(queryStart + 1)...].split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let name = try PercentDecoding.decode(.init(rebasing: pair[..<equals]), plusIsSpace: true)
            let value = try PercentDecoding.decode(.init(rebasing: pair[equals...].dropFirst()), plusIsSpace: true)
            items.append((name: name, value: value))
        }
        query = QueryItems(items)
    }

    /// The authority of an absolute-form target and where its path starts; nil and 0 for an
    /// origin-form one. Only `http` and `https` are absolute-form here; a user part (`user@`) is
    /// refused, as is an empty authority.
    private static func authority(
        of bytes: UnsafeBufferPointer<UInt8>
    ) throws(HTTPRequest.TargetError) -> (String?, Int) {
        if bytes.first == UInt8(ascii: "/") { return (nil, 0) }
        let schemeLength = hasScheme("https", bytes) ? 8 : hasScheme("http", bytes) ? 7 : 0
        guard schemeLength > 0 else { throw .notOriginForm }
        let rest = bytes[schemeLength...]
        let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.endIndex
        let authority = bytes[schemeLength..<end]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { throw .notOriginForm }
        return (String(decoding: authority, as: UTF8.self), end)
    }

    /// Whether `bytes` start with `scheme` (lowercase letters, matched in any case) and `://`.
    private static func hasScheme(_ scheme: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let letters = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
        guard bytes.count > letters.count + 2 else { return false }
        for (index, letter) in letters.enumerated() where bytes[index] | 0x20 != letter {
            return false
        }
        return bytes[letters.count...].starts(with: "://".utf8)
    }
}
