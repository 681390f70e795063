extension [UInt8] {
    /// Appends `name: value` and a line feed (`name:` alone when the value is empty, and
    /// `: value` for a comment, whose name is empty). The value must hold no line break.
    mutating func appendField(_ name: String, _ value: some Collection<UInt8>) {
        append(contentsOf: name.utf8)
        append(.colon)
        if !value.isEmpty {
            append(.space)
            append(contentsOf: value)
        }
        append(.lineFeed)
    }

    /// Appends one `name` field per line of `text`, splitting on CRLF, CR and LF alike (the
    /// three line ends the format accepts). Empty text still gives one field.
    mutating func appendLines(of text: String, as name: String) {
        // Scanning bytes is safe: no byte of a multi-byte UTF-8 sequence is below 0x80.
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        var index = lineStart
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte.isLineBreak else {
                utf8.formIndex(after: &index)
                continue
            }
            appendField(name, utf8[lineStart..<index])
            utf8.formIndex(after: &index)
            if byte == .carriageReturn, index != utf8.endIndex, utf8[index] == .lineFeed {
                utf8.formIndex(after: &index)
            }
            lineStart = index
        }
        appendField(name, utf8[lineStart..<utf8.endIndex])
    }
}
