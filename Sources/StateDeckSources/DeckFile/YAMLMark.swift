import CYAML

/// Where a YAML node or problem starts, counted from 1 (columns in characters), as Yams counted.
struct YAMLMark: Hashable {
    let line: Int
    let column: Int
}

extension YAMLMark {
    /// libyaml's `yaml_mark_t`, which counts from 0.
    init(_ mark: yaml_mark_t) {
        self.init(line: mark.line + 1, column: mark.column + 1)
    }

    /// The mark of byte `offset` of UTF-8 `text`: libyaml locates reader errors (such as a control
    /// character) by offset only.
    init(offset: Int, in text: UnsafeBufferPointer<UInt8>) {
        let before = text.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        self.init(
            line: before.count { $0 == UInt8(ascii: "\n") } + 1,
            // Every byte but a UTF-8 continuation byte starts a character.
            column: before[lineStart...].count { $0 & 0xC0 != 0x80 } + 1
        )
    }
}
