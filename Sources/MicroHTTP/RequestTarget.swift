/// The decoded parts of an origin-form request target (`/path?query`).
struct RequestTarget {
    let pathSegments: [String]
    let query: QueryItems

    init(parsing target: String) throws(HTTPRequest.TargetError) {
        var target = target
        self = try target.withUTF8 { bytes in
            Result { () throws(HTTPRequest.TargetError) in try RequestTarget(parsing: bytes) }
        }.get()
    }

    /// Scans the target's bytes in place: a string's bytes are valid UTF-8, so a part with no
    /// escape is one too (it ends at an ASCII byte) and becomes a string without a check.
    private init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(HTTPRequest.TargetError) {
        guard bytes.first == UInt8(ascii: "/") else { throw .notOriginForm }
        let queryStart = bytes.firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = queryStart ?? bytes.endIndex
        var segments: [String] = []
        var start = 1
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
}
