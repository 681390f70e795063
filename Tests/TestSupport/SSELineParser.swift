/// Turns event-stream bytes into items, per the WHATWG event-stream format.
struct SSELineParser {
    private var buffer: [UInt8] = []
    private var ready: [SSEItem] = []
    private var event: String?
    private var id: String?
    private var data: [String] = []

    mutating func append(_ bytes: [UInt8]) {
        buffer += bytes
        while let end = buffer.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            // A CR at the very end may be the first half of CRLF: wait for more.
            if buffer[end] == UInt8(ascii: "\r"), end == buffer.count - 1 { break }
            let line = String(decoding: buffer[..<end], as: UTF8.self)
            let crlf = buffer[end] == UInt8(ascii: "\r") && buffer[end + 1] == UInt8(ascii: "\n")
            buffer.removeFirst(end + (crlf ? 2 : 1))
            take(line)
        }
    }

    mutating func next() -> SSEItem? {
        ready.isEmpty ? nil : ready.removeFirst()
    }

    private mutating func take(_ line: String) {
        if line.isEmpty {
            if !data.isEmpty {
                ready.append(.event(SSEEvent(event: event, id: id, data: data.joined(separator: "\n"))))
            }
            event = nil
            data = []
            return
        }
        let (field, value) = split(line)
        switch field {
        case "": ready.append(.comment(value))
        case "event": event = value
        case "id": id = value
        case "data": data.append(value)
        case "retry": Int(value).map { ready.append(.retry($0)) }
        default: break
        }
    }

    private func split(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }
}
