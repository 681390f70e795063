extension String {
    /// Unicode's invisible direction controls: the marks (U+200E, U+200F, U+061C), embeddings and
    /// overrides (U+202A to U+202E) and isolates (U+2066 to U+2069). Each reorders the text drawn
    /// after it, so a reason can end in a right-to-left override and read, drawn, as another
    /// sentence than the one written ("… started by alice").
    static let directionControls: Set<Unicode.Scalar> = Set(
        ([0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)).compactMap(Unicode.Scalar.init))

    /// The text with each direction control written out (`[U+202E]`): what was written is kept,
    /// and shows that it held one, without the power to reorder what is drawn around it.
    var directionControlsShown: String {
        guard unicodeScalars.contains(where: Self.directionControls.contains) else { return self }
        var shown = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard Self.directionControls.contains(scalar) else {
                shown.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            shown.append(contentsOf: "[U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)]".unicodeScalars)
        }
        return String(shown)
    }
}
