/// Raw requests whose head or target is exactly a given size, for the transport's limits.
enum SizedRequest {
    /// A request whose head (request line, `Host`, `fields`, a filler header, the blank line) is
    /// exactly `size` bytes.
    static func head(size: Int, host: String, method: String = "GET", target: String = "/", fields: String = "") -> String {
        let start = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n\(fields)X-Filler: "
        let filler = size - (start + "\r\n\r\n").utf8.count
        precondition(filler >= 0, "a head of \(size) bytes cannot hold \(start)")
        return start + String(repeating: "a", count: filler) + "\r\n\r\n"
    }

    /// A GET of a target exactly `length` bytes long: `/` and then `a`s.
    static func target(length: Int, host: String, fields: String = "") -> String {
        "GET /\(String(repeating: "a", count: length - 1)) HTTP/1.1\r\nHost: \(host)\r\n\(fields)\r\n"
    }
}
