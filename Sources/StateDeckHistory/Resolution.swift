/// The buckets tallies are kept in.
public enum Resolution: Int, Sendable, CaseIterable {
    case minute = 60
    case hour = 3_600
    case day = 86_400

    /// The bucket's length in milliseconds.
    public var milliseconds: Int64 { Int64(rawValue) * 1000 }

    /// The start of the bucket holding `milliseconds` (since 1970, UTC).
    public func start(of milliseconds: Int64) -> Int64 {
        let length = self.milliseconds
        let remainder = milliseconds % length
        return milliseconds - (remainder < 0 ? remainder + length : remainder)
    }
}

/// One panel's tally of one bucket, as one watch counted it.
public struct TallyRow: Sendable, Equatable {
    public var panel: String
    public var resolution: Resolution
    /// The bucket's start, in milliseconds since 1970.
    public var start: Int64
    /// The ``HistoryWatch`` that counted it: a bucket counted again after the wall clock went back
    /// is another row, added to the first rather than written over it.
    public var watch: Int64
    public var tally: Tally
    /// For a bucket saved while its minute was open (the minute with a batch; the minute, hour and
    /// day of a panel removed from the deck within it), the time (milliseconds since 1970) its time
    /// was counted to; nil for a bucket saved as it stood at a minute's end.
    public var countedTo: Int64?

    public init(panel: String, resolution: Resolution, start: Int64, watch: Int64, tally: Tally, countedTo: Int64? = nil) {
        self.panel = panel
        self.resolution = resolution
        self.start = start
        self.watch = watch
        self.tally = tally
        self.countedTo = countedTo
    }
}
