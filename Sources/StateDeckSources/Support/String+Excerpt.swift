extension String {
    /// At most `limit` characters of the string, marked with an ellipsis when cut.
    func excerpt(limit: Int) -> String {
        count <= limit ? self : prefix(limit) + "…"
    }

    /// The last `count` lines, for a command's standard error in an error card.
    func lastLines(_ count: Int) -> String {
        split(separator: "\n", omittingEmptySubsequences: false)
            .suffix(count + (hasSuffix("\n") ? 1 : 0))
            .joined(separator: "\n")
    }
}
