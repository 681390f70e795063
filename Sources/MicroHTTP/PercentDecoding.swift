/// Decodes `%HH` escapes exactly once, refusing malformed escapes and non-UTF-8 results.
enum PercentDecoding {
    /// `bytes` must be valid UTF-8 (part of a string's bytes, cut at ASCII bytes): only what
    /// escapes decode to is checked.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) throws(HTTPRequest.TargetError) -> String {
        // Most segments hold nothing to decode.
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard bytes.endIndex - index >= 3,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { throw .malformedPercentEncoding }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard let string = String(validUTF8: decoded) else { throw .notUTF8 }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
