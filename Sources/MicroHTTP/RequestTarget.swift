/// The decoded parts of an origin-form request target (`/path?query`).
struct RequestTarget {
    let pathSegments: [String]
    let query: QueryItems

    init(parsing target: String) throws(HTTPRequest.TargetError) {
        let bytes = Array(target.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw .notOriginForm }
        let queryStart = bytes.firstIndex(of: UInt8(ascii: "?"))
        let path = bytes[1..<(queryStart ?? bytes.endIndex)]
        var segments: [String] = []
        for segment in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            segments.append(try PercentDecoding.decode(segment, plusIsSpace: false))
        }
        pathSegments = segments
        guard let queryStart else {
            query = QueryItems()
            return
        }
        var items: [QueryItems.Item] = []
        for pair in bytes[(queryStart + 1)...].split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let name = try PercentDecoding.decode(pair[..<equals], plusIsSpace: true)
            let value = try PercentDecoding.decode(pair[equals...].dropFirst(), plusIsSpace: true)
            items.append((name: name, value: value))
        }
        query = QueryItems(items)
    }
}
