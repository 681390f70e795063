extension ServerSentEvent {
    /// A comment block (`: text`), which clients ignore: used as a keep-alive ping.
    public static func comment(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLines(of: text, as: "")
        bytes.append(.lineFeed)
        return bytes
    }

    /// A `retry:` block: how long the client waits before reconnecting after the stream drops.
    public static func retry(after delay: Duration) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendField("retry", String(delay.wholeMilliseconds).utf8)
        bytes.append(.lineFeed)
        return bytes
    }
}

extension Duration {
    /// Whole milliseconds, rounded down; negative durations count as zero.
    var wholeMilliseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        // Clamped so the product cannot overflow (Int128 is not on every supported platform).
        let wholeSeconds = min(UInt64(seconds), UInt64.max / 1000 - 1)
        return wholeSeconds * 1000 + UInt64(attoseconds / 1_000_000_000_000_000)
    }
}
