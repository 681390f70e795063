import Testing

/// One blank-line-terminated block of an event stream, read the way a browser reads it.
struct ReceivedBlock: Equatable {
    var event: String?
    var id: UInt64?
    /// The `data:` lines joined with line feeds; nil when the block has none.
    var data: String?
    var retry: UInt64?
    var comments: [String] = []

    /// Splits `text` into blocks; an unterminated last block is left out, as a browser does.
    static func parse(_ text: String) -> [ReceivedBlock] {
        parse(Array(text.utf8))
    }

    /// Bytes rather than `String` lines: the stress tests read megabytes in debug builds.
    static func parse(_ bytes: [UInt8]) -> [ReceivedBlock] {
        var blocks: [ReceivedBlock] = []
        var current = ReceivedBlock()
        var isEmpty = true
        let lineFeed = UInt8(ascii: "\n")
        for line in bytes.split(separator: lineFeed, omittingEmptySubsequences: false).dropLast() {
            if line.isEmpty {
                if !isEmpty { blocks.append(current) }
                current = ReceivedBlock()
                isEmpty = true
            } else {
                isEmpty = false
                current.read(line)
            }
        }
        return blocks
    }

    private mutating func read(_ line: ArraySlice<UInt8>) {
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        var valueStart = min(colon + 1, line.endIndex)
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let name = String(decoding: line[..<colon], as: UTF8.self)
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch name {
        case "": comments.append(value)
        case "event": event = value
        case "id": id = UInt64(value)
        case "data": data = data.map { $0 + "\n" + value } ?? value
        case "retry": retry = UInt64(value)
        default: Issue.record("unexpected field \(name)")
        }
    }
}
