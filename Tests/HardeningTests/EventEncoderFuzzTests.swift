import EventStream
import TestSupport
import Testing

extension Live {
    /// Property-based tests of the SSE encoder (`ServerSentEvent.encoded()`, `comment`, `retry`)
    /// against the WHATWG parsing rules, 10,000 seeded random cases per property.
    @Suite("Event stream encoder fuzz") struct EventEncoderFuzzTests {
        static let cases = 10_000
        static let fieldPrefixes = ["data:", "event:", "id:", "retry:", ":"]

        @Test("Every line of an encoded event is a field or a comment, with no CR anywhere, and one blank line ends it")
        func linesAreFields() {
            checkProperty("line shape", cases: Self.cases) { random in
                let event = Self.randomEvent(&random)
                let bytes = event.encoded()
                guard !bytes.contains(13) else { return "CR in \(Self.show(bytes)) for \(event)" }
                guard String(validating: bytes, as: UTF8.self) != nil else { return "not UTF-8: \(Self.show(bytes))" }
                guard bytes.suffix(2) == [10, 10] else { return "does not end with a blank line: \(Self.show(bytes))" }
                let lines = bytes.dropLast(2).split(separator: 10, omittingEmptySubsequences: false)
                for line in lines {
                    let text = String(decoding: line, as: UTF8.self)
                    guard !text.isEmpty else { return "a blank line inside the event ends it early: \(Self.show(bytes))" }
                    guard Self.fieldPrefixes.contains(where: text.hasPrefix) else {
                        return "line \(text.debugDescription) is no field: \(Self.show(bytes))"
                    }
                }
                return nil
            }
        }

        @Test("A browser's parser reads back the event: its data (line ends as LF), its type and its id")
        func roundTripsThroughAParser() {
            checkProperty("parser round trip", cases: Self.cases) { random in
                let event = Self.randomEvent(&random)
                var oracle = EventStreamOracle()
                oracle.feed(String(decoding: event.encoded(), as: UTF8.self))
                let expected = Self.expected(event, lastID: "")
                return oracle.events == [expected] ? nil : "\(event) parsed as \(oracle.events), expected \(expected)"
            }
        }

        @Test("A stream of events, pings and retry lines, cut anywhere, parses to the same events in order")
        func streamsParseInAnyPieces() {
            checkProperty("stream", cases: Self.cases / 4) { random in
                var bytes = ServerSentEvent.retry(after: .milliseconds(random.int(0...60_000)))
                var expected: [EventStreamOracle.Event] = []
                var lastID = ""
                var comments: [String] = []
                for _ in 0..<random.int(1...8) {
                    if random.chance(0.3) {
                        let text = random.text(maximum: 10)
                        bytes += ServerSentEvent.comment(text)
                        comments += Self.lines(of: text)
                    }
                    let event = Self.randomEvent(&random)
                    bytes += event.encoded()
                    if let id = event.id { lastID = String(id) }
                    expected.append(Self.expected(event, lastID: lastID))
                }
                let text = String(decoding: bytes, as: UTF8.self)
                var oracle = EventStreamOracle()
                var scalars = Array(text.unicodeScalars)[...]
                while !scalars.isEmpty {
                    let piece = scalars.prefix(random.int(1...20))
                    scalars = scalars.dropFirst(piece.count)
                    oracle.feed(String(String.UnicodeScalarView(piece)))
                }
                guard oracle.events == expected else { return "events \(oracle.events), expected \(expected)" }
                let read = oracle.comments.map { $0.unicodeScalars.first == " " ? String($0.unicodeScalars.dropFirst()) : $0 }
                guard read == comments else {
                    return "comments \(oracle.comments), expected \(comments)"
                }
                return oracle.retry == nil ? "the retry line was lost" : nil
            }
        }

        @Test("A comment of any text stays a comment: every line starts with a colon, no CR")
        func commentsStayComments() {
            checkProperty("comments", cases: Self.cases) { random in
                let bytes = ServerSentEvent.comment(random.text(maximum: 30))
                guard !bytes.contains(13), bytes.suffix(2) == [10, 10] else { return Self.show(bytes) }
                let lines = bytes.dropLast(2).split(separator: 10, omittingEmptySubsequences: false)
                return lines.allSatisfy { $0.first == UInt8(ascii: ":") } ? nil : Self.show(bytes)
            }
        }

        static func randomEvent(_ random: inout SeededRandom) -> ServerSentEvent {
            let breaks: [Unicode.Scalar] = ["\r", "\n", "a", "b", " ", ":", "é", "\0", "\u{2028}", "\u{85}", "\u{FEFF}", "d", "=", "\t"]
            let data: String
            switch random.int(0..<3) {
            case 0: data = random.text(maximum: 40)
            case 1: data = random.text(maximum: 40, alphabet: breaks)
            default: data = random.pick(["", "\n", "\r", "\r\n", "\n\n", "\r\r", "\r\n\r\n", " ", "data: x", "\nid: 1", ":"])
            }
            let event = random.chance(0.5) ? random.text(maximum: 12, alphabet: breaks) : nil
            let id = random.chance(0.5) ? UInt64.random(in: 0...UInt64.max, using: &random) : nil
            return ServerSentEvent(event: event, id: id, data: data)
        }

        /// What the parser must read: line ends normalized to LF; the type loses its line breaks.
        static func expected(_ event: ServerSentEvent, lastID: String) -> EventStreamOracle.Event {
            let type = String(String.UnicodeScalarView((event.event ?? "").unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
            return EventStreamOracle.Event(
                type: type.isEmpty ? "message" : type,
                data: lines(of: event.data).joined(separator: "\n"),
                lastEventID: event.id.map { String($0) } ?? lastID)
        }

        /// `text` split on CRLF, CR and LF.
        static func lines(of text: String) -> [String] {
            var lines: [String] = []
            var current = String.UnicodeScalarView()
            var scalars = Array(text.unicodeScalars)[...]
            while let scalar = scalars.popFirst() {
                if scalar == "\r" || scalar == "\n" {
                    if scalar == "\r", scalars.first == "\n" { scalars = scalars.dropFirst() }
                    lines.append(String(current))
                    current = String.UnicodeScalarView()
                } else {
                    current.append(scalar)
                }
            }
            lines.append(String(current))
            return lines
        }

        static func show(_ bytes: [UInt8]) -> String {
            String(decoding: bytes, as: UTF8.self).debugDescription
        }
    }
}
