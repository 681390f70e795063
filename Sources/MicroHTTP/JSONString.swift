/// JSON string literals, escaped per RFC 8259, for documents written by hand around bytes already
/// encoded (this module's error answers, the server's state document).
public enum JSONString {
    /// `string` as a JSON string literal, quotes included.
    public static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Other controls must be escaped; U+2028/9 too, so the text is also safe inside JS.
            case "\u{0}"..."\u{1F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
