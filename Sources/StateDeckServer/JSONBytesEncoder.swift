import FoundationEssentials
import StateDeck

/// Encodes a value as compact JSON straight into bytes, keys in the order `encode(to:)` writes
/// them, dates as ``DeckJSON/timestamp(_:)``: what travels with every change of every panel.
///
/// Foundation's `JSONEncoder` first builds a tree of boxed values, then writes it; for the small
/// documents of a panel change that was most of the cost of a check (seen: a quarter of the CPU
/// of a deck of 3,000 panels refreshed every second). Here containers write as they are used:
/// each one holds a level of an open-bracket stack, a value's containers are closed when its
/// `encode(to:)` returns, and an outer container closes the inner ones before its next element,
/// so any `Encodable` that encodes in sequence (every synthesized and hand-written one here)
/// writes valid JSON.
struct JSONBytesEncoder {
    func encode(_ value: some Encodable) throws -> [UInt8] {
        let writer = Writer()
        try writer.write(value)
        return writer.bytes
    }

    /// A panel patch, as `encode(_:)` writes it, written by the patch itself (``PanelPatch/write(to:)``).
    func encode(_ patch: PanelPatch) throws -> [UInt8] {
        let writer = Writer()
        try patch.write(to: writer)
        return writer.bytes
    }

    /// The bytes so far and the containers still open, innermost last.
    final class Writer {
        var bytes: [UInt8] = []
        /// For each open container: its closing bracket and whether it holds an element yet.
        private var open: [(closing: UInt8, hasElements: Bool)] = []

        init() {
            bytes.reserveCapacity(512)
        }

        /// Writes `value`, then closes every container its encoding opened.
        func write(_ value: some Encodable) throws {
            let level = open.count
            if let date = value as? Date {
                string(DeckJSON.timestamp(date))
            } else {
                try value.encode(to: ValueEncoder(writer: self))
            }
            close(to: level)
        }

        /// Opens a container that ends with `closing`; its level is the returned index.
        func openContainer(_ opening: UInt8, _ closing: UInt8) -> Int {
            bytes.append(opening)
            open.append((closing, false))
            return open.count - 1
        }

        /// Starts the next element of the container at `level`, closing the deeper ones first.
        func startElement(in level: Int) {
            close(to: level + 1)
            if open[level].hasElements { bytes.append(UInt8(ascii: ",")) }
            open[level].hasElements = true
        }

        /// Starts the member `key` of the object at `level`.
        func startMember(_ key: String, in level: Int) {
            startElement(in: level)
            string(key)
            bytes.append(UInt8(ascii: ":"))
        }

        /// Closes the containers opened at `level` and deeper.
        func close(to level: Int) {
            while open.count > level { bytes.append(open.removeLast().closing) }
        }

        func literal(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        func number(_ value: Double) throws {
            guard value.isFinite else {
                throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number"))
            }
            literal(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value))
        }

        /// `text` quoted, with the escapes JSON requires, and U+2028/9 so it is safe in JavaScript too.
        func string(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            defer { bytes.append(UInt8(ascii: "\"")) }
            // Most text needs no escape: copied whole. 0xE2 leads U+2028 and U+2029, escaped below.
            guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }) else {
                return bytes.append(contentsOf: text.utf8)
            }
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22: literal("\\\"")
                case 0x5C: literal("\\\\")
                case 0x0A: literal("\\n")
                case 0x0D: literal("\\r")
                case 0x09: literal("\\t")
                case 0..<0x20, 0x2028, 0x2029:
                    let hex = String(scalar.value, radix: 16)
                    literal("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                case 0..<0x80: bytes.append(UInt8(scalar.value))
                default: UTF8.encode(scalar) { bytes.append($0) }
                }
            }
        }
    }
}

/// The `Encoder` handed to each value: it opens containers on the shared writer.
private struct ValueEncoder: Encoder {
    let writer: JSONBytesEncoder.Writer
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ObjectContainer(writer: writer, level: writer.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"))))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ArrayContainer(writer: writer, level: writer.openContainer(UInt8(ascii: "["), UInt8(ascii: "]")))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValue(writer: writer)
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONBytesEncoder.Writer
    let level: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        writer.startMember(key.stringValue, in: level)
        writer.literal("null")
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        writer.startMember(key.stringValue, in: level)
        writer.literal(value ? "true" : "false")
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        writer.startMember(key.stringValue, in: level)
        writer.string(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        writer.startMember(key.stringValue, in: level)
        writer.literal(String(value))
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        writer.startMember(key.stringValue, in: level)
        try writer.number(value)
    }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        writer.startMember(key.stringValue, in: level)
        try writer.write(value)
    }

    mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.startMember(key.stringValue, in: level)
        return ValueEncoder(writer: writer).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.startMember(key.stringValue, in: level)
        return ValueEncoder(writer: writer).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.startMember(key.stringValue, in: level)
        return ValueEncoder(writer: writer)
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let writer: JSONBytesEncoder.Writer
    let level: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(writer: JSONBytesEncoder.Writer, level: Int) {
        self.writer = writer
        self.level = level
    }

    mutating func encodeNil() throws {
        next()
        writer.literal("null")
    }

    mutating func encode(_ value: some Encodable) throws {
        next()
        try writer.write(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next()
        return ValueEncoder(writer: writer).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next()
        return ValueEncoder(writer: writer).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        next()
        return ValueEncoder(writer: writer)
    }

    private mutating func next() {
        writer.startElement(in: level)
        count += 1
    }
}

private struct SingleValue: SingleValueEncodingContainer {
    let writer: JSONBytesEncoder.Writer
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { writer.literal("null") }
    mutating func encode(_ value: Bool) throws { writer.literal(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { writer.string(value) }
    mutating func encode(_ value: Int) throws { writer.literal(String(value)) }
    mutating func encode(_ value: Double) throws { try writer.number(value) }
    mutating func encode(_ value: some Encodable) throws { try writer.write(value) }
}
