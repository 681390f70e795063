/// One reply of a Redis server in its protocol, RESP: `+OK`, `-ERR …`, `:42`, `$5 hello`, `*2 …`.
indirect enum RESPReply: Equatable {
    case simple(String)
    case error(String)
    case integer(Int)
    /// Nil for Redis's nil.
    case bulk(String?)
    /// Nil for Redis's nil array.
    case array([RESPReply]?)

    /// The reply as text: an integer's digits, an array's elements one a line; nil for Redis's nil.
    var text: String? {
        switch self {
        case .simple(let text), .error(let text): text
        case .integer(let number): String(number)
        case .bulk(let text): text
        case .array(let elements): elements.map { $0.map { $0.text ?? "nil" }.joined(separator: "\n") }
        }
    }

    /// Why bytes are not RESP.
    struct Malformed: Error {
        let reason: String
    }

    /// Arrays within arrays deeper than this are refused, before they exhaust the stack.
    static let depthLimit = 16

    /// The reply at the start of `bytes` and how many bytes it takes; nil while it is incomplete.
    static func parse(_ bytes: ArraySlice<UInt8>, depth: Int = 0) throws(Malformed) -> (reply: RESPReply, length: Int)? {
        guard let kind = bytes.first else { return nil }
        guard let end = lineEnd(in: bytes) else { return nil }
        let line = String(decoding: bytes[(bytes.startIndex + 1)..<end], as: UTF8.self)
        let afterLine = end + 2
        switch kind {
        case UInt8(ascii: "+"): return (.simple(line), afterLine - bytes.startIndex)
        case UInt8(ascii: "-"): return (.error(line), afterLine - bytes.startIndex)
        case UInt8(ascii: ":"):
            guard let number = Int(line) else { throw Malformed(reason: "\(line.quoted) is not an integer") }
            return (.integer(number), afterLine - bytes.startIndex)
        case UInt8(ascii: "$"):
            guard let count = Int(line), count >= -1 else { throw Malformed(reason: "\(line.quoted) is not a length") }
            guard count >= 0 else { return (.bulk(nil), afterLine - bytes.startIndex) }
            guard bytes.endIndex - afterLine >= count + 2 else { return nil }
            let text = String(decoding: bytes[afterLine..<(afterLine + count)], as: UTF8.self)
            return (.bulk(text), afterLine + count + 2 - bytes.startIndex)
        case UInt8(ascii: "*"):
            guard let count = Int(line), count >= -1 else { throw Malformed(reason: "\(line.quoted) is not a length") }
            guard count >= 0 else { return (.array(nil), afterLine - bytes.startIndex) }
            guard depth < depthLimit else { throw Malformed(reason: "arrays nested more than \(depthLimit) deep") }
            var elements: [RESPReply] = []
            var offset = afterLine
            for _ in 0..<count {
                guard let (element, length) = try parse(bytes[offset...], depth: depth + 1) else { return nil }
                elements.append(element)
                offset += length
            }
            return (.array(elements), offset - bytes.startIndex)
        default:
            throw Malformed(reason: "a reply starting with \(String(decoding: [kind], as: UTF8.self).quoted)")
        }
    }

    /// Where the first `\r\n` of `bytes` starts.
    private static func lineEnd(in bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(of: UInt8(ascii: "\r")) {
            guard found + 1 < bytes.endIndex else { return nil }
            if bytes[found + 1] == UInt8(ascii: "\n") { return found }
            index = found + 1
        }
        return nil
    }

    /// `arguments` as a command: an array of bulk strings.
    static func command(_ arguments: [String]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            bytes += Array("$\(argument.utf8.count)\r\n".utf8) + Array(argument.utf8) + Array("\r\n".utf8)
        }
        return bytes
    }
}
