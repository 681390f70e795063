package extension StringProtocol {
    /// The text without the white space (spaces, tabs, line breaks) around it.
    func trimmed() -> String {
        let text = String(self)
        // Text that begins and ends with a visible ASCII character, as most does, has none.
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return text
        }
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
        return String(text[start..<end])
    }
}
