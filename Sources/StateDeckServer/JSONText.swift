/// JSON text pieces the server writes by hand around bytes it already holds.
enum JSONText {
    /// `value` as a JSON string literal, escaped per RFC 8259.
    static func string(_ value: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += [0x5C, 0x22]
            case "\\": out += [0x5C, 0x5C]
            case "\n": out += [0x5C, UInt8(ascii: "n")]
            case "\r": out += [0x5C, UInt8(ascii: "r")]
            case "\t": out += [0x5C, UInt8(ascii: "t")]
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                out += Array(String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}
