/// Finds a key given twice in one object of a JSON text, which `JSONDecoder` would take silently
/// (the last one wins): a request saying two things at once is refused instead.
enum JSONDuplicateKey {
    /// The path of the first key given again (`info.summary`, `items[2].id`), or nil when every
    /// object's keys are unique. `bytes` must be valid JSON; keys are compared as written.
    static func first(in bytes: [UInt8]) -> String? {
        /// An open object (its keys so far, and whether a key comes next) or array (its index).
        enum Frame {
            case object(keys: Set<[UInt8]>, expectingKey: Bool, key: String?)
            case array(index: Int)
        }
        var frames: [Frame] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                frames.append(.object(keys: [], expectingKey: true, key: nil))
            case UInt8(ascii: "["):
                frames.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                frames.removeLast()
            case UInt8(ascii: ":"):
                if case .object(let keys, _, let key) = frames.last {
                    frames[frames.count - 1] = .object(keys: keys, expectingKey: false, key: key)
                }
            case UInt8(ascii: ","):
                switch frames.last {
                case .object(let keys, _, let key): frames[frames.count - 1] = .object(keys: keys, expectingKey: true, key: key)
                case .array(let position): frames[frames.count - 1] = .array(index: position + 1)
                case nil: break
                }
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard case .object(var keys, true, _) = frames.last else { break }
                let key = Array(bytes[start..<min(index, bytes.endIndex)])
                let name = String(decoding: key, as: UTF8.self)
                guard keys.insert(key).inserted else { return path(frames.dropLast(), then: name) }
                frames[frames.count - 1] = .object(keys: keys, expectingKey: false, key: name)
            default:
                break
            }
            index += 1
        }
        return nil

        func path(_ outer: ArraySlice<Frame>, then name: String) -> String {
            outer.reduce(into: "") { path, frame in
                switch frame {
                case .object(_, _, let key?): path += path.isEmpty ? key : "." + key
                case .array(let position): path += "[\(position)]"
                case .object: break
                }
            } + (outer.isEmpty ? name : "." + name)
        }
    }
}
