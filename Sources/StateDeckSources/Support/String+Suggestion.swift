extension String {
    /// What to add to a message about this unexpected word: "; did you mean X?" when a candidate
    /// is close, else the list of candidates.
    func hint(among candidates: [String]) -> String {
        closestMatch(in: candidates).map { "; did you mean \($0)?" }
            ?? " (expected \(candidates.joined(separator: ", ")))"
    }

    /// The candidate closest to this string, if it is close enough to be what was meant: at most
    /// a third of its letters differ (case aside).
    func closestMatch(in candidates: [String]) -> String? {
        let typed = lowercased()
        let scored = candidates.map { ($0, typed.editDistance(to: $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= Swift.max(1, count / 3) else { return nil }
        return best.0
    }

    /// Insertions, deletions, substitutions and swaps of neighbours needed to turn this string
    /// into `other` (the optimal string alignment distance): `titel` is one edit from `title`.
    func editDistance(to other: String) -> Int {
        let source = Array(self), target = Array(other)
        var before = [Int](), previous = Array(0...target.count)
        for row in source.indices {
            var current = [row + 1]
            for column in target.indices {
                var cost = Swift.min(previous[column + 1] + 1, current[column] + 1,
                                     previous[column] + (source[row] == target[column] ? 0 : 1))
                if row > 0, column > 0, source[row] == target[column - 1], source[row - 1] == target[column] {
                    cost = Swift.min(cost, before[column - 1] + 1)
                }
                current.append(cost)
            }
            (before, previous) = (previous, current)
        }
        return previous[target.count]
    }
}
