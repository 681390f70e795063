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
