/// An event-stream parser written from the WHATWG HTML standard ("Parsing an event stream"), as
/// the oracle the encoder is checked against. It takes text in any pieces, as a browser would.
struct EventStreamOracle {
    struct Event: Equatable, CustomStringConvertible {
        var type: String
        var data: String
        var lastEventID: String

        /// Byte for byte: `String`'s own `==` would take "é" and "e\u{301}" for the same.
        static func == (lhs: Event, rhs: Event) -> Bool {
            lhs.type.utf8.elementsEqual(rhs.type.utf8) && lhs.data.utf8.elementsEqual(rhs.data.utf8)
                && lhs.lastEventID.utf8.elementsEqual(rhs.lastEventID.utf8)
        }

        var description: String { "type=\(type.debugDescription) id=\(lastEventID.debugDescription) data=\(data.debugDescription)" }
    }

    private(set) var events: [Event] = []
    private(set) var comments: [String] = []
    private(set) var retry: Int?
    private var pending = ""
    private var sawCR = false
    private var data = ""
    private var type = ""
    private var lastEventID = ""

    /// Feeds the next piece of the stream.
    mutating func feed(_ text: String) {
        for character in text.unicodeScalars {
            switch character {
            case "\r":
                line()
                sawCR = true
            case "\n":
                if sawCR {
                    sawCR = false
                } else {
                    line()
                }
            default:
                sawCR = false
                pending.unicodeScalars.append(character)
            }
        }
    }

    /// One line, handled scalar by scalar (a combining mark after `:` or a space must not merge
    /// with it, as it would in a `Character`).
    private mutating func line() {
        let scalars = Array(pending.unicodeScalars)
        pending = ""
        if scalars.isEmpty {
            dispatch()
            return
        }
        if scalars[0] == ":" {
            comments.append(Self.text(scalars.dropFirst()))
            return
        }
        let field: ArraySlice<Unicode.Scalar>
        var value: ArraySlice<Unicode.Scalar>
        if let colon = scalars.firstIndex(of: ":") {
            field = scalars[..<colon]
            value = scalars[(colon + 1)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = scalars[...]
            value = []
        }
        let text = Self.text(value)
        switch Self.text(field) {
        case "event": type = text
        case "data": data += text + "\n"
        case "id" where !value.contains("\0"): lastEventID = text
        case "retry" where !value.isEmpty && value.allSatisfy({ ("0"..."9").contains($0) }): retry = Int(text)
        default: break
        }
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(String.UnicodeScalarView(scalars))
    }

    private mutating func dispatch() {
        defer { type = "" }
        guard !data.isEmpty else { return }
        if data.unicodeScalars.last == "\n" { data.unicodeScalars.removeLast() }
        events.append(Event(type: type.isEmpty ? "message" : type, data: data, lastEventID: lastEventID))
        data = ""
    }
}
