extension Duration {
    /// Parses the deck file's durations: a number and a unit, such as `500ms`, `5s`, `1.5m`, `1h`.
    init?(parsing text: String) {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        guard text.first?.isNumber == true,
              let unit = units.first(where: { text.hasSuffix($0.suffix) }),
              let number = Double(text.dropLast(unit.suffix.count)) else { return nil }
        let milliseconds = (number * unit.seconds * 1000).rounded()
        // A year is plenty for any timeout or interval, and keeps the conversion from overflowing.
        guard milliseconds <= 365 * 86_400_000 else { return nil }
        self = .milliseconds(Int64(milliseconds))
    }

    /// A short reading for people: `12 ms`, `1.5 s`, `3 s`, `2 min`.
    package var shortText: String {
        let milliseconds = self.milliseconds
        guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
        guard milliseconds >= 60_000 else {
            let tenths = (Double(milliseconds) / 100).rounded()
            return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) s" : "\(tenths / 10) s"
        }
        return "\((milliseconds + 30_000) / 60_000) min"
    }
}
