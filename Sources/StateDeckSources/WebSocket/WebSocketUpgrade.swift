import COpenSSL
import FoundationEssentials
import StateDeck

/// The HTTP/1.1 upgrade that opens a WebSocket (RFC 6455, section 4): the request with a fresh
/// key, and the judgement of the answer's head, whose `Sec-WebSocket-Accept` must be the key's
/// SHA-1 with the protocol's GUID, in Base64.
struct WebSocketUpgrade {
    /// 16 random bytes in Base64.
    let key: String
    /// The request: GET of the path with its query, the host as the URL writes it.
    let request: [UInt8]

    /// The protocol's GUID, which the server appends to the key before hashing it.
    private static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// A head longer is not an upgrade's answer.
    static let headLimit = 16 << 10

    init(host: String, target: String) {
        var generator = SystemRandomNumberGenerator()
        key = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
        request = Array("""
            GET \(target) HTTP/1.1\r
            Host: \(host)\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: \(key)\r
            Sec-WebSocket-Version: 13\r
            User-Agent: StateDeck\r
            \r

            """.utf8)
    }

    /// What the server answered.
    enum Answer: Equatable {
        case accepted
        /// Another status than 101: the status and its reason phrase.
        case refused(Int, String)
        /// 101 without the right `Sec-WebSocket-Accept`: the value it sent, nil for none.
        case wrongAccept(String?)
        /// Not an HTTP answer: its first line.
        case notHTTP(String)
    }

    /// The length of the head at the start of `buffer`, through its empty line; nil until it is whole.
    static func headLength(in buffer: [UInt8]) -> Int? {
        let end: [UInt8] = [13, 10, 13, 10]
        guard buffer.count >= 4 else { return nil }
        return (0...(buffer.count - 4)).first { buffer[$0..<$0 + 4].elementsEqual(end) }.map { $0 + 4 }
    }

    /// The judgement of an answer's `head`.
    func judge(_ head: [UInt8]) -> Answer {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n").map(String.init)
        let statusLine = lines.first ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            return .notHTTP(statusLine)
        }
        guard status == 101 else { return .refused(status, parts.count == 3 ? String(parts[2]) : "") }
        let accept = lines.dropFirst().first { $0.lowercased().hasPrefix("sec-websocket-accept:") }
            .map { $0.dropFirst("sec-websocket-accept:".count).trimmed() }
        return accept == expectedAccept ? .accepted : .wrongAccept(accept)
    }

    /// Base64 of the SHA-1 of the key and the GUID (`EVP_Digest` with `EVP_sha1`).
    var expectedAccept: String {
        let text = Array((key + Self.guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_Digest(text, text.count, &digest, &length, EVP_sha1(), nil)
        return Data(digest.prefix(Int(length))).base64EncodedString()
    }
}
