extension String {
    /// `bytes` as a string when they are valid UTF-8, else nil: what `String(validating:as:)`
    /// does, without its unspecialized path through the standard library, which looks up
    /// generic metadata on every call (≈ 2 % of a static request's CPU, measured with `perf`).
    /// Decoding repairs invalid bytes, so they come back unchanged exactly when they were valid.
    init?<Bytes: Collection<UInt8>>(validUTF8 bytes: Bytes) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
