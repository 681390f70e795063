import FoundationEssentials
import StateDeck

/// Which timeline to draw: `slots` equal slots that end with the one holding `to` and cover
/// about `span`. A slot is a whole number of the stored buckets it is summed from, so the span
/// may grow a little.
public struct TimelineQuery: Sendable, Equatable {
    public static let slotCounts = 1...500
    /// The longest span a timeline covers: two years, the days' default retention.
    public static let longestSpan: Duration = .seconds(2 * 366 * 86_400)
    public var span: Duration
    public var slots: Int
    /// Nil for now, as the store counts it: a time taken before the store reads its clock would
    /// be a moment in the past.
    public var to: Date?

    public init(span: Duration = .seconds(86_400), slots: Int = 90, to: Date? = nil) {
        self.span = span
        self.slots = slots
        self.to = to
    }
}

/// A panel's uptime over 24 hours, 7 and 30 days, its health now, and its timeline: the
/// `GET /api/panels/{id}/uptime` document. The page draws it as it is.
///
/// Every figure holds only time up to the query's `to`: tallies are kept per bucket and a bucket
/// cannot be split, so a `to` in the past counts up to the start of the bucket holding it (a
/// bucket open now holds time only up to now, so a `to` from now on counts it whole, unless another
/// watch counted time in it after `to`: the wall clock was set back, and that bucket ends the
/// figures as a past `to` would, so no slot holds more time than it spans). A ratio counts the
/// buckets that start within its span before `to`: ended early, it holds less, not older time.
public struct UptimeReport: Sendable, Equatable {
    /// Time up out of time up or down over the last 24 hours, 7 and 30 days (time under maintenance
    /// is neither); nil with no data.
    public var day: Double?
    public var week: Double?
    public var month: Double?
    /// The panel's health now; nil before its first result.
    public var current: CurrentHealth?
    /// Each slot's length.
    public var slotMs: Int64
    public var slots: [Slot]
    /// The stretches within the slots that StateDeck was not watching (it was stopped, the
    /// machine slept, or its clock jumped forward), oldest first: no data.
    public var unwatched: [Stretch]

    /// A panel's health now, since when, and since when it was watched without a break: a health
    /// that began before StateDeck was stopped is known only for the watch since.
    public struct CurrentHealth: Sendable, Equatable {
        public var health: Health
        public var since: Date
        public var watchedSince: Date

        public init(health: Health, since: Date, watchedSince: Date) {
            self.health = health
            self.since = since
            self.watchedSince = watchedSince
        }
    }

    /// A stretch of time.
    public struct Stretch: Sendable, Equatable {
        public var from: Date
        public var to: Date

        public init(from: Date, to: Date) {
            self.from = from
            self.to = to
        }
    }

    /// One slot of the timeline.
    public struct Slot: Sendable, Equatable {
        public var from: Date
        public var to: Date
        public var tally: Tally

        /// The tally's ``Tally/state``.
        public var state: String { tally.state }
    }

    /// The report of `query` at `now` from a panel's tallies: `rows(resolution, from)` gives those
    /// of buckets starting at or after `from` (stored and unsaved, in any order); `unwatched` are
    /// the stretches no watch covered; `watchedBefore` those the watches before the one going on
    /// covered, which may lie after `now` when the wall clock was set back; `retentionNow` no
    /// earlier than the furthest instant retention deleted by, this run's or an earlier one's
    /// (``HistoryState``'s, ahead of `now` after a jump back; `now` when nil).
    public init<Failure: Error>(
        query: TimelineQuery, now: Date, current: CurrentHealth?, unwatched: [Stretch], watchedBefore: [Stretch] = [],
        retention: HistoryRetention, retentionNow: Date? = nil, rows: (Resolution, Int64) throws(Failure) -> [TallyRow]
    ) throws(Failure) {
        let counted = now.millisecondsSince1970
        let to = query.to?.millisecondsSince1970 ?? counted
        /// Where the buckets of `resolution` that hold no time after `to` end.
        func end(_ resolution: Resolution) -> Int64 {
            let (start, bucketEnd) = (resolution.start(of: to), resolution.start(of: to) + resolution.milliseconds)
            // A watch that watched nothing (its time after a start or a jump was never saved)
            // counted nothing there.
            let countedAfter = to < counted || watchedBefore.contains {
                max($0.from.millisecondsSince1970, to) < min($0.to.millisecondsSince1970, bucketEnd)
            }
            return countedAfter ? start : to
        }
        /// The tallies of `resolution` in the buckets that start in `from..<end`.
        func total(_ resolution: Resolution, from: Int64, end: Int64) throws(Failure) -> [TallyRow] {
            try rows(resolution, from).filter { $0.start >= from && $0.start < end }
        }
        // Hours are fine enough for a ratio of a day or more, and a 24th of the minutes to add. The
        // window is the span before `to`, the buckets starting in it: one holding time after `to`
        // ends it early, and does not move its start.
        func ratio(_ span: Duration) throws(Failure) -> Double? {
            let resolution: Resolution = retention.hours >= span ? .hour : .day
            var sum = Tally()
            for row in try total(resolution, from: to - Int64(span / .milliseconds(1)), end: end(resolution)) {
                sum.merge(row.tally)
            }
            return sum.upRatio
        }
        day = try ratio(.seconds(86_400))
        week = try ratio(.seconds(7 * 86_400))
        month = try ratio(.seconds(30 * 86_400))
        self.current = current

        let slotCount = min(max(query.slots, 1), TimelineQuery.slotCounts.upperBound)
        let wanted = Int64(query.span / .milliseconds(1)) / Int64(slotCount)
        func width(of resolution: Resolution) -> Int64 {
            max(1, (wanted + resolution.milliseconds - 1) / resolution.milliseconds) * resolution.milliseconds
        }
        // A slot starting before what retention keeps of the resolution (retention's now runs
        // ahead of the wall clock once it was set back) is summed from the finest buckets it
        // holds whole that retention keeps, whose totals are the same. The slots of a past `to`
        // that hold no such buckets whole, its span's start older than the resolution is kept,
        // are all of the finest resolution kept that far back.
        let kept = (retentionNow ?? now).millisecondsSince1970
        /// The finest resolution, `finest` or coarser, that slots of `width` hold whole buckets of
        /// and that retention keeps at `start`; nil for none.
        func keptResolution(at start: Int64, width: Int64, from finest: Resolution) -> Resolution? {
            Resolution.allCases.first {
                $0.rawValue >= finest.rawValue && width % $0.milliseconds == 0 && start >= retention.cutoff(of: $0, now: kept)
            }
        }
        let spanStart = to - Int64(query.span / .milliseconds(1))
        var resolution = retention.finestResolution(covering: query.span)
        if to < counted, keptResolution(at: spanStart, width: width(of: resolution), from: resolution) == nil {
            resolution = Resolution.allCases.first { spanStart >= retention.cutoff(of: $0, now: kept) } ?? .day
        }
        let width = width(of: resolution)
        func source(ofSlotAt start: Int64) -> Resolution {
            keptResolution(at: start, width: width, from: resolution) ?? resolution
        }
        /// Where the slot holding the moment before `end` starts, so that none is empty of time.
        func lastStart(before end: Int64) -> Int64 {
            (end - 1) - (((end - 1) % width) + width) % width
        }
        // The last slot ends where the buckets it is summed from hold no time after `to`: summed
        // from coarser ones, one of them may hold time another watch counted after `to` (the wall
        // clock was set back over it) that the resolution's bucket holding `to` does not.
        var timelineEnd = end(resolution)
        while true {
            let sourceEnd = end(source(ofSlotAt: lastStart(before: timelineEnd)))
            guard sourceEnd < timelineEnd else { break }
            timelineEnd = sourceEnd
        }
        let firstStart = lastStart(before: timelineEnd) - Int64(slotCount - 1) * width
        let sources = (0..<slotCount).map { source(ofSlotAt: firstStart + Int64($0) * width) }
        var tallies = [Tally](repeating: Tally(), count: slotCount)
        for source in Resolution.allCases {
            guard let first = sources.firstIndex(of: source) else { continue }
            for row in try total(source, from: firstStart + Int64(first) * width, end: timelineEnd) {
                let index = Int((row.start - firstStart) / width)
                if sources[index] == source { tallies[index].merge(row.tally) }
            }
        }
        slotMs = width
        slots = tallies.enumerated().map { index, tally in
            let start = firstStart + Int64(index) * width
            return Slot(from: Date(millisecondsSince1970: start),
                        to: Date(millisecondsSince1970: min(start + width, timelineEnd)), tally: tally)
        }
        let timeline = Date(millisecondsSince1970: firstStart)..<Date(millisecondsSince1970: timelineEnd)
        self.unwatched = unwatched.compactMap { stretch in
            let clipped = Stretch(from: max(stretch.from, timeline.lowerBound), to: min(stretch.to, timeline.upperBound))
            return clipped.from < clipped.to ? clipped : nil
        }
    }
}

extension UptimeReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case day = "24h", week = "7d", month = "30d", current, slotMs, slots, unwatched
    }

    private enum CurrentKeys: String, CodingKey {
        case state, since, watchedSince
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(week, forKey: .week)
        try container.encode(month, forKey: .month)
        if let current {
            var nested = container.nestedContainer(keyedBy: CurrentKeys.self, forKey: .current)
            try nested.encode(current.health.name, forKey: .state)
            try nested.encode(current.since, forKey: .since)
            try nested.encode(current.watchedSince, forKey: .watchedSince)
        } else {
            try container.encodeNil(forKey: .current)
        }
        try container.encode(slotMs, forKey: .slotMs)
        try container.encode(slots, forKey: .slots)
        try container.encode(unwatched, forKey: .unwatched)
    }
}

extension UptimeReport.Stretch: Encodable {}

extension UptimeReport.Slot: Encodable {
    private enum CodingKeys: String, CodingKey {
        case from, to, state, upMs, downMs, loadingMs, maintenanceMs, loads, failures, avgMs, p95Ms, maxMs
    }

    /// Durations are left out of a slot with no timed load.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(state, forKey: .state)
        try container.encode(tally.upMs, forKey: .upMs)
        try container.encode(tally.downMs, forKey: .downMs)
        try container.encode(tally.loadingMs, forKey: .loadingMs)
        try container.encode(tally.maintenanceMs, forKey: .maintenanceMs)
        try container.encode(tally.loads, forKey: .loads)
        try container.encode(tally.failures, forKey: .failures)
        try container.encodeIfPresent(tally.averageMs, forKey: .avgMs)
        try container.encodeIfPresent(tally.p95Ms, forKey: .p95Ms)
        try container.encodeIfPresent(tally.maxMs, forKey: .maxMs)
    }
}
