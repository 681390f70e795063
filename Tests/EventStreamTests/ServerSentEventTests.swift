import EventStream
import Testing

@Suite struct ServerSentEventTests {
    private func encoded(event: String? = nil, id: UInt64? = nil, _ data: String) -> String {
        String(decoding: ServerSentEvent(event: event, id: id, data: data).encoded(), as: UTF8.self)
    }

    @Test func encodesEventIDAndData() {
        #expect(encoded(event: "panel", id: 7, "{}") == "event: panel\nid: 7\ndata: {}\n\n")
    }

    @Test func leavesOutAbsentFields() {
        #expect(encoded("x") == "data: x\n\n")
    }

    @Test(arguments: [
        ("a\nb", "data: a\ndata: b\n\n"),
        ("a\r\nb", "data: a\ndata: b\n\n"),
        ("a\rb", "data: a\ndata: b\n\n"),
        ("a\nb\r\nc\rd", "data: a\ndata: b\ndata: c\ndata: d\n\n"),
        ("a\r\n\r\nb", "data: a\ndata:\ndata: b\n\n"),
        ("\r\r", "data:\ndata:\ndata:\n\n"),
        ("\n\r", "data:\ndata:\ndata:\n\n"),
        ("a\n", "data: a\ndata:\n\n"),
        (" lead", "data:  lead\n\n"),
    ])
    func splitsDataOnEveryLineEnd(data: String, expected: String) {
        #expect(encoded(data) == expected)
    }

    @Test func emptyDataIsOneDataLine() {
        #expect(encoded(event: "toast", id: 1, "") == "event: toast\nid: 1\ndata:\n\n")
    }

    @Test func stripsLineBreaksFromTheEventName() {
        #expect(encoded(event: "pa\r\nnel\n", id: 3, "x") == "event: panel\nid: 3\ndata: x\n\n")
        #expect(encoded(event: "\rsnap\rshot", "x") == "event: snapshot\ndata: x\n\n")
    }

    @Test func idIsDecimal() {
        #expect(encoded(id: .max, "x") == "id: 18446744073709551615\ndata: x\n\n")
    }

    @Test func keepsUnicodeIntact() {
        let data = "héllo 🌍\r\nzwölf ✓ 日本"
        let bytes = ServerSentEvent(event: "ünï", id: 1, data: data).encoded()
        #expect(bytes == Array("event: ünï\nid: 1\ndata: héllo 🌍\ndata: zwölf ✓ 日本\n\n".utf8))
    }

    @Test func aBrowserReadsBackTheData() {
        let data = "{\"a\": 1}\n\n  indented\nlast"
        let blocks = ReceivedBlock.parse(encoded(event: "panel", id: 9, data))
        #expect(blocks == [ReceivedBlock(event: "panel", id: 9, data: data)])
    }

    @Test func encodesComments() {
        #expect(ServerSentEvent.comment("ping") == Array(": ping\n\n".utf8))
        #expect(ServerSentEvent.comment("a\nb") == Array(": a\n: b\n\n".utf8))
    }

    @Test(arguments: [
        (Duration.seconds(2), "retry: 2000\n\n"),
        (.milliseconds(1500), "retry: 1500\n\n"),
        (.microseconds(2500), "retry: 2\n\n"),
        (.zero, "retry: 0\n\n"),
        (.milliseconds(-5), "retry: 0\n\n"),
    ])
    func encodesRetry(delay: Duration, expected: String) {
        #expect(ServerSentEvent.retry(after: delay) == Array(expected.utf8))
    }
}
