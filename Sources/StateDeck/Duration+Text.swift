extension Duration {
    /// Parses the durations of deck files and query parameters: a number and a unit, such as
    /// `500ms`, `5s`, `1.5m`, `1h`, `7d`, up to `maximum`.
    package init?(parsing text: String, maximum: Duration = .seconds(365 * 86_400)) {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        guard text.first?.isNumber == true,
              let unit = units.first(where: { text.hasSuffix($0.suffix) }),
              let number = Double(text.dropLast(unit.suffix.count)) else { return nil }
        let milliseconds = (number * unit.seconds * 1000).rounded()
        // A year is plenty for any timeout or interval, and a limit keeps the conversion from overflowing.
        guard milliseconds <= Double(maximum / .milliseconds(1)) else { return nil }
        self = .milliseconds(Int64(milliseconds))
    }

    /// A short reading for people: `12 ms`, `1.5 s`, `3 s`, `2 min`.
    package var shortText: String {
        let milliseconds = Int64(self / .milliseconds(1))
        guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
        guard milliseconds >= 60_000 else {
            let tenths = (Double(milliseconds) / 100).rounded()
            return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) s" : "\(tenths / 10) s"
        }
        return "\((milliseconds + 30_000) / 60_000) min"
    }

    /// A length of time in its two largest units, for messages: `45 s`, `4 min`, `2 h 5 min`,
    /// `3 d 2 h`.
    package var lengthText: String {
        let seconds = max(0, Int(components.seconds))
        let units = [("d", 86_400), ("h", 3_600), ("min", 60), ("s", 1)]
        let first = units.firstIndex { seconds >= $0.1 } ?? units.count - 1
        let (name, size) = units[first]
        var text = "\(seconds / size) \(name)"
        if first + 1 < units.count, case let (nextName, nextSize) = units[first + 1], seconds % size / nextSize > 0 {
            text += " \(seconds % size / nextSize) \(nextName)"
        }
        return text
    }
}
