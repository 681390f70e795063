extension Int {
    /// "1 day", "9 days".
    func counted(_ noun: String) -> String {
        "\(self) \(noun)\(self == 1 ? "" : "s")"
    }

    /// These seconds in whole days, rounded down: negative once past.
    var wholeDays: Int { flooredDivision(by: 86_400) }

    /// When something these seconds away falls due, as a card says it: "in 9 days", "within a day".
    var whenDue: String {
        wholeDays < 1 ? "within a day" : "in \(wholeDays.counted("day"))"
    }
}
