package extension StringProtocol {
    /// The text without the white space (spaces, tabs, line breaks) around it.
    func trimmed() -> String {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return String(self[start..<end])
    }
}
