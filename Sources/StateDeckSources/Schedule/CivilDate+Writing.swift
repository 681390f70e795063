/// Dates as cards and info write them: "27 December 2026".
extension CivilDate {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    /// The day of `second` since 1970 on a clock `offset` seconds east of UTC.
    init(second: Int, offset: Int = 0) {
        self.init(daysSinceEpoch: (second + offset).flooredDivision(by: 86_400))
    }

    /// "27 December 2026".
    var written: String { "\(writtenWithoutYear) \(year)" }

    /// "27 December".
    var writtenWithoutYear: String { "\(day) \(Self.monthNames[month - 1])" }
}
