/// BYTEA in PostgreSQL's text form: `\x` and two hex digits a byte.
enum ByteaText {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = Array("\\x".utf8)
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text`; what is not hex form decodes to none (an empty histogram).
    static func decode(_ text: String) -> [UInt8] {
        let characters = Array(text.utf8)
        guard characters.count >= 2, characters[0] == UInt8(ascii: "\\"), characters[1] == UInt8(ascii: "x"),
              characters.count % 2 == 0 else { return [] }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((characters.count - 2) / 2)
        var index = 2
        while index < characters.count {
            guard let high = value(characters[index]), let low = value(characters[index + 1]) else { return [] }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
