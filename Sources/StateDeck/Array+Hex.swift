extension Array where Element == UInt8 {
    /// The bytes as lower-case hex, two digits each: digests and ids written as text.
    public var lowercaseHex: String {
        map { String(Int($0) + 0x100, radix: 16).dropFirst() }.joined()
    }
}
