/// One server-sent event, encoded as the `text/event-stream` format defines it.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field; nil leaves it out, so the browser dispatches a `message` event.
    public var event: String?
    /// The `id:` field, which the browser sends back as `Last-Event-ID` when it reconnects.
    public var id: UInt64?
    /// The payload; each of its lines (split on CRLF, CR or LF) becomes one `data:` line.
    public var data: String

    public init(event: String? = nil, id: UInt64? = nil, data: String) {
        self.event = event
        self.id = id
        self.data = data
    }

    /// The event's bytes, ending with the blank line that makes the client dispatch it.
    ///
    /// Line breaks in `event` are removed: a field must stay on one line, or the client would
    /// read the rest as a field of its own.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + (event?.utf8.count ?? 0) + 40)
        if let event {
            bytes.appendField("event", event.utf8.filter { !$0.isLineBreak })
        }
        if let id {
            bytes.appendField("id", String(id).utf8)
        }
        bytes.appendLines(of: data, as: "data")
        bytes.append(.lineFeed)
        return bytes
    }
}

// MARK: - Control blocks

extension ServerSentEvent {
    /// A comment block (`: text`), which clients ignore: used as a keep-alive ping.
    public static func comment(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLines(of: text, as: "")
        bytes.append(.lineFeed)
        return bytes
    }

    /// A `retry:` block: how long the client waits before reconnecting after the stream drops.
    public static func retry(after delay: Duration) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendField("retry", String(delay.wholeMilliseconds).utf8)
        bytes.append(.lineFeed)
        return bytes
    }
}

extension Duration {
    /// Whole milliseconds, rounded down; negative durations count as zero.
    var wholeMilliseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        // Clamped so the product cannot overflow (Int128 is not on every supported platform).
        let wholeSeconds = min(UInt64(seconds), UInt64.max / 1000 - 1)
        return wholeSeconds * 1000 + UInt64(attoseconds / 1_000_000_000_000_000)
    }
}

// MARK: - Encoding

extension [UInt8] {
    /// Appends `name: value` and a line feed (`name:` alone when the value is empty, and
    /// `: value` for a comment, whose name is empty). The value must hold no line break.
    mutating func appendField(_ name: String, _ value: some Collection<UInt8>) {
        append(contentsOf: name.utf8)
        append(.colon)
        if !value.isEmpty {
            append(.space)
            append(contentsOf: value)
        }
        append(.lineFeed)
    }

    /// Appends one `name` field per line of `text`, splitting on CRLF, CR and LF alike (the
    /// three line ends the format accepts). Empty text still gives one field.
    mutating func appendLines(of text: String, as name: String) {
        // Over the text's contiguous bytes, each line copied at once: every event's data passes
        // here. Scanning bytes is safe: no byte of a multi-byte UTF-8 sequence is below 0x80.
        var text = text
        text.withUTF8 { utf8 in
            var lineStart = 0
            var index = 0
            while index != utf8.count {
                let byte = utf8[index]
                index += 1
                guard byte.isLineBreak else { continue }
                appendField(name, UnsafeBufferPointer(rebasing: utf8[lineStart..<index - 1]))
                if byte == .carriageReturn, index != utf8.count, utf8[index] == .lineFeed {
                    index += 1
                }
                lineStart = index
            }
            appendField(name, UnsafeBufferPointer(rebasing: utf8[lineStart...]))
        }
    }
}

extension UInt8 {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let colon: UInt8 = 0x3A
    static let space: UInt8 = 0x20

    var isLineBreak: Bool { self == .lineFeed || self == .carriageReturn }
}
