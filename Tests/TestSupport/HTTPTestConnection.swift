/// One raw HTTP/1.1 connection: send any bytes, read whole responses (chunked bodies decoded).
public final class HTTPTestConnection {
    public let socket: TestSocket
    private let host: String
    private let port: Int

    public init(host: String = "127.0.0.1", port: Int, receiveBufferSize: Int? = nil) throws {
        socket = try TestSocket(host: host, port: port, receiveBufferSize: receiveBufferSize)
        self.host = host
        self.port = port
    }

    /// Sends raw request bytes exactly as given.
    public func send(_ raw: String) throws {
        try socket.send(raw)
    }

    public func send(_ bytes: [UInt8]) throws {
        try socket.send(bytes)
    }

    /// Sends a well-formed request (with `Host`, and `Content-Length` when there is a body).
    public func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if let body {
            head += "Content-Length: \(body.count)\r\n"
        }
        try socket.send(Array((head + "\r\n").utf8) + (body ?? []))
    }

    /// Reads one response. `bodyless` for answers to HEAD, which carry no body whatever
    /// their `Content-Length` says.
    public func readResponse(bodyless: Bool = false, timeout: Duration = defaultWait) throws -> HTTPTestResponse {
        let deadline = ContinuousClock.now + timeout
        let (status, headers) = try readHead(until: deadline)
        let response = { (body: [UInt8]) in HTTPTestResponse(status: status, headers: headers, body: body) }
        let header = { (name: String) in headers.first { $0.name.lowercased() == name }?.value }
        if bodyless || status / 100 == 1 || status == 204 || status == 304 {
            return response([])
        }
        if header("transfer-encoding")?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while let chunk = try readChunk(until: deadline) {
                body += chunk
            }
            return response(body)
        }
        if let length = header("content-length").flatMap(Int.init) {
            return response(try socket.read(count: length, until: deadline))
        }
        return response(try socket.readToEnd(until: deadline))
    }

    /// The status line and headers.
    public func readHead(until deadline: ContinuousClock.Instant) throws -> (Int, [(name: String, value: String)]) {
        let statusLine = try socket.readLine(until: deadline)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw TestClientError.malformed("status line: \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try socket.readLine(until: deadline)
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw TestClientError.malformed("header: \(line)") }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers.append((name: String(line[..<colon]), value: String(value)))
        }
        return (status, headers)
    }

    /// The next chunk of a chunked body, or nil after the last one (trailers skipped).
    public func readChunk(until deadline: ContinuousClock.Instant) throws -> [UInt8]? {
        let sizeLine = try socket.readLine(until: deadline)
        let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        guard let size = Int(sizeText.trimmingCharacters(), radix: 16) else {
            throw TestClientError.malformed("chunk size: \(sizeLine)")
        }
        if size == 0 {
            while try !socket.readLine(until: deadline).isEmpty {}
            return nil
        }
        let chunk = try socket.read(count: size, until: deadline)
        guard try socket.readLine(until: deadline).isEmpty else { throw TestClientError.malformed("chunk end") }
        return chunk
    }

    /// True once the server closes the connection before `timeout`.
    public func waitForClose(timeout: Duration = defaultWait) -> Bool {
        socket.waitForClose(timeout: timeout)
    }

    public func close() {
        socket.close()
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// One-shot requests on a fresh connection.
public enum HTTPTestClient {
    /// Sends `raw` exactly as given and reads one response.
    public static func send(_ raw: String, port: Int, host: String = "127.0.0.1", bodyless: Bool = false) throws -> HTTPTestResponse {
        let connection = try HTTPTestConnection(host: host, port: port)
        try connection.send(raw)
        return try connection.readResponse(bodyless: bodyless)
    }

    /// Sends a well-formed request and reads the response.
    public static func request(
        _ method: String, _ target: String, port: Int, host: String = "127.0.0.1",
        headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> HTTPTestResponse {
        let connection = try HTTPTestConnection(host: host, port: port)
        try connection.send(method, target, headers: headers, body: body)
        return try connection.readResponse(bodyless: method == "HEAD")
    }
}
