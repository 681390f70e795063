/// Header fields in the order they were sent or added; names compare case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Field = (name: String, value: String)

    private var fields: [Field]

    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.same($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any existing ones of that name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Replaces every field of that name with one.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { Self.same($0.name, name) }
        fields.append((name: name, value: value))
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        // Copies of one value (a static file's headers, on every request) share storage, so
        // they are equal without a field compared.
        let shared = lhs.fields.withUnsafeBufferPointer { left in
            rhs.fields.withUnsafeBufferPointer { $0.baseAddress == left.baseAddress && $0.count == left.count }
        }
        return shared || lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    // Header names are ASCII tokens, so an ASCII-only fold is exact and cheaper than Unicode.
    // Looked up several times per request: names of another length are told apart without a
    // byte compared, equal spellings by one memcmp.
    private static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return a == b || a.utf8.elementsEqual(b.utf8) { lowercase($0) == lowercase($1) }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }
}
