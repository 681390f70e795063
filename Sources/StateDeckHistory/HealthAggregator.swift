import FoundationEssentials
import StateDeck

/// Turns panel changes into tallies of minutes, hours and days, as time passes.
///
/// Each panel's health is the one the deck decided with each change (``Health/after(_:cause:)``);
/// the time between two changes is counted in the health it had, split at bucket edges. At each
/// minute's end the minute, its hour and its day are handed out as ``TallyRow``s as they stand
/// (the hour and day again at the next minute's end, until they end too). The open minute is in
/// ``openRows()`` only once it gained what time alone does not tell: a load, or a change of the
/// health it counts in (a debug command's hold included). So the rows saved of an hour or a day
/// lack only the minute in progress, and a minute saved open lacks only the time since it was
/// counted, which went on in the health its panel's `latest` row keeps: ``HistoryState`` adds both
/// when a watch ended with them. Every row is stamped with the watch counting it. Time forced by a
/// debug command counts nowhere, and neither does time before a panel was first heard of, nor time
/// between two watches, nor time in ``uncredited`` (before the watch began, or counted by another).
///
/// Tracks are changed in place: a deck of thousands of panels sends hundreds of changes a second,
/// and every panel's time is counted at each save.
public struct HealthAggregator: Sendable {
    /// One panel's health, and its open buckets.
    public struct Track: Sendable {
        public var health: Health = .unknown
        /// When the current health began, in milliseconds since 1970.
        public var since: Int64
        /// Time is counted up to here.
        var countedTo: Int64
        var forced = false
        /// Under a maintenance window: time counts as maintenance.
        var underMaintenance = false
        /// The open minute, hour and day.
        var minute: Bucket?
        var hour: Bucket?
        var day: Bucket?
    }

    /// An open bucket: its start (milliseconds since 1970) and what it holds.
    struct Bucket: Sendable {
        var start: Int64
        var tally = Tally()
    }

    public private(set) var tracks: [String: Track] = [:]
    /// The watch counting: stamped on every row.
    public private(set) var watch: Int64
    /// Wall time the watch credits to no bucket, merged, in order: see ``HistoryWatch/uncredited(among:)``.
    private(set) var uncredited: [Range<Int64>]
    /// Buckets as they stood at the minute ends since `takeClosedRows()` was last called.
    private var closed: [TallyRow] = []
    /// The panels whose open minute gained a load, or a change of health or hold, since it was
    /// last saved: a save writes these alone, without going through every panel.
    private var unsavedOpenMinutes: Set<String> = []
    /// Removed panels whose tracks are kept, counting nothing, until their buckets end.
    private var ended: Set<String> = []
    /// Panels whose hour and day were handed out holding their open minute (``end(_:)``), by that
    /// minute's start: added back within it, they are saved with the minute at each batch, so that
    /// a store finishing the watch does not add the minute to them a second time.
    private var hoursHoldingOpenMinute: [String: Int64] = [:]

    public init(watch: Int64, uncredited: [Range<Int64>] = []) {
        self.watch = watch
        self.uncredited = uncredited
    }

    /// This aggregator with `panel`'s track alone: a query counts on it without the others.
    func only(_ panel: String) -> HealthAggregator {
        var single = HealthAggregator(watch: watch, uncredited: uncredited)
        single.tracks = tracks[panel].map { [panel: $0] } ?? [:]
        return single
    }

    /// Continues panel `panel` from a store: its health since `since`, counted from `now` on (the
    /// server was not running before), in buckets of this watch. Not under maintenance: a deck
    /// that starts inside a window says so with its first change.
    public mutating func resume(_ panel: String, health: Health, since: Int64, now: Int64) {
        tracks[panel] = Track(health: health, since: since, countedTo: now)
    }

    /// Counts time up to the change, then applies it. A change stamped before the time counted
    /// (the clock went back, or it was queued while a save counted on) is applied there.
    public mutating func apply(_ change: PanelChange) {
        let at = change.at.millisecondsSince1970
        if tracks[change.panel] == nil { tracks[change.panel] = Track(since: at, countedTo: at) }
        ended.remove(change.panel)
        tracks[change.panel]!.advance(to: at, panel: change.panel, watch: watch, skipping: uncredited, closing: &closed)
        if tracks[change.panel]!.apply(change, at: tracks[change.panel]!.countedTo) {
            unsavedOpenMinutes.insert(change.panel)
        }
    }

    /// Counts every panel's time up to `date`, ending the buckets that `date` has passed.
    public mutating func advance(to date: Date) {
        advance(to: date.millisecondsSince1970)
    }

    mutating func advance(to now: Int64) {
        let (watch, uncredited) = (watch, uncredited)
        var closing = closed
        closed = []
        forEachTrack { panel, track in
            track.advance(to: now, panel: panel, watch: watch, skipping: uncredited, closing: &closing)
        }
        closed = closing
        if !ended.isEmpty { dropEndedTracks() }
        if !hoursHoldingOpenMinute.isEmpty {
            hoursHoldingOpenMinute = hoursHoldingOpenMinute.filter { tracks[$0.key]?.minute?.start == $0.value }
        }
    }

    /// Runs `body` on every panel's track in place. A loop over `tracks.indices` would hold a
    /// second reference to the dictionary, and its first change would copy every track.
    private mutating func forEachTrack(_ body: (String, inout Track) -> Void) {
        var index = tracks.startIndex
        while index != tracks.endIndex {
            body(tracks.keys[index], &tracks.values[index])
            tracks.formIndex(after: &index)
        }
    }

    /// Ends the watch: every open bucket is handed out as it stands, and counting goes on from
    /// `now` in buckets of watch `next`, which credits nothing in `uncredited`. Time between is
    /// counted nowhere.
    mutating func startWatch(_ next: Int64, at now: Int64, uncredited: [Range<Int64>]) {
        let ending = watch
        var closing = closed
        closed = []
        forEachTrack { panel, track in
            for resolution in Resolution.allCases {
                if let open = track[resolution], !open.tally.isEmpty {
                    closing.append(TallyRow(panel: panel, resolution: resolution, start: open.start, watch: ending,
                                            tally: open.tally))
                }
                track[resolution] = nil
            }
            track.countedTo = now
        }
        closed = closing
        unsavedOpenMinutes = []
        hoursHoldingOpenMinute = [:]
        watch = next
        self.uncredited = uncredited
    }

    /// Stops counting `panel`, removed from the deck: its open buckets are handed out as they
    /// stand, with the time they were counted to (a stop before the minute's end then loses none
    /// of its time, and a store finishing the watch knows the hour and day hold the minute), and
    /// its health is unknown from now on, so no time counts for it. The buckets stay open until they end: a
    /// change of it before then (it was added again) counts on in them, and does not write over
    /// the time they hold. Its health begins anew with that change; the time it was away is
    /// counted nowhere. Once its day has ended, the track is dropped.
    mutating func end(_ panel: String) {
        guard var track = tracks[panel], !ended.contains(panel) else { return }
        for resolution in Resolution.allCases {
            if let open = track[resolution], !open.tally.isEmpty {
                closed.append(TallyRow(panel: panel, resolution: resolution, start: open.start, watch: watch, tally: open.tally,
                                       countedTo: track.countedTo))
            }
        }
        hoursHoldingOpenMinute[panel] = track.minute?.start
        track.health = .unknown
        track.forced = false
        track.underMaintenance = false
        tracks[panel] = track
        ended.insert(panel)
    }

    /// Whether `panel` was removed from the deck (``end(_:)``) and has not come back.
    func hasEnded(_ panel: String) -> Bool { ended.contains(panel) }

    /// Drops the tracks of removed panels whose buckets have all ended.
    private mutating func dropEndedTracks() {
        for panel in ended where tracks[panel].map({ $0.minute == nil && $0.hour == nil && $0.day == nil }) ?? true {
            tracks[panel] = nil
            ended.remove(panel)
        }
    }

    /// The rows of the buckets as they stood at each minute's end since the last call (ended
    /// buckets, and the hours and days still open), in that order.
    public mutating func takeClosedRows() -> [TallyRow] {
        defer { closed = [] }
        return closed
    }

    /// The open minutes that changed since ``markOpenRows(saved:)``, as they stand: saved with
    /// each batch, so that a stop or a crash loses none of the time they hold. Their hours and
    /// days are saved at minute ends, one row a panel a batch rather than three, except those
    /// already saved holding the minute (``hoursHoldingOpenMinute``), saved with it.
    public func openRows() -> [TallyRow] {
        unsavedOpenMinutes.flatMap { panel -> [TallyRow] in
            guard let track = tracks[panel], let open = track.minute, !open.tally.isEmpty else { return [] }
            let resolutions: [Resolution] = hoursHoldingOpenMinute[panel] == open.start ? Resolution.allCases : [.minute]
            return resolutions.compactMap { resolution in
                track[resolution].map {
                    TallyRow(panel: panel, resolution: resolution, start: $0.start, watch: watch, tally: $0.tally,
                             countedTo: track.countedTo)
                }
            }
        }
    }

    /// Whether the open minutes are saved as they stand: true after a commit, false when the
    /// store lost them (its file was made anew).
    mutating func markOpenRows(saved: Bool) {
        unsavedOpenMinutes = saved ? [] : Set(tracks.keys)
    }

    /// The buckets of `resolution` that `panel` has not handed out yet, with time counted up to
    /// `date`: those `date` has ended since the last count, and the open one.
    public func unsavedRows(of panel: String, _ resolution: Resolution, at date: Date) -> [TallyRow] {
        guard var track = tracks[panel] else { return [] }
        var rows: [TallyRow] = []
        track.advance(to: date.millisecondsSince1970, panel: panel, watch: watch, skipping: uncredited, closing: &rows)
        rows.removeAll { $0.resolution != resolution || $0.start == track[resolution]?.start }
        if let open = track[resolution], !open.tally.isEmpty {
            rows.append(TallyRow(panel: panel, resolution: resolution, start: open.start, watch: watch, tally: open.tally))
        }
        return rows
    }
}

extension HealthAggregator.Track {
    subscript(resolution: Resolution) -> HealthAggregator.Bucket? {
        get {
            switch resolution {
            case .minute: minute
            case .hour: hour
            case .day: day
            }
        }
        set {
            switch resolution {
            case .minute: minute = newValue
            case .hour: hour = newValue
            case .day: day = newValue
            }
        }
    }

    /// Takes the health the deck decided with the change, and whether the panel is under
    /// maintenance; a result counts a load, and a mark changes neither the health nor a debug
    /// command's hold. Returns whether the open minute gained what time alone does not tell: a
    /// load, or a change of health, hold or maintenance.
    mutating func apply(_ change: PanelChange, at: Int64) -> Bool {
        let (wasForced, wasUnderMaintenance) = (forced, underMaintenance)
        if change.cause != .mark { forced = change.cause == .debug }
        underMaintenance = change.maintenance != nil
        var gained = forced != wasForced || underMaintenance != wasUnderMaintenance
        guard !forced else { return gained }
        switch change.state {
        case .loaded where change.cause.isResult, .error where change.cause.isResult:
            gained = true
            let milliseconds = change.duration.map { Int64(($0 / .milliseconds(1)).rounded()) }
            let failed = change.state.phase == .error
            for resolution in Resolution.allCases {
                withOpen(resolution, at: at) { $0.countLoad(failed: failed, milliseconds: milliseconds) }
            }
        default:
            break
        }
        if change.health != health {
            health = change.health
            since = at
            gained = true
        }
        return gained
    }

    /// Counts time from where it was counted to `now` in the health it had, minute by minute,
    /// less the time in `uncredited` (merged, in order), and appends each bucket that ends on the
    /// way to `closing`.
    mutating func advance(to now: Int64, panel: String, watch: Int64, skipping uncredited: [Range<Int64>],
                          closing: inout [TallyRow]) {
        while countedTo < now {
            let minuteEnd = Resolution.minute.start(of: countedTo) + Resolution.minute.milliseconds
            let end = min(now, minuteEnd)
            let from = countedTo
            let credited = end - from - uncredited.reduce(0) { skipped, span in
                skipped + max(0, min(end, span.upperBound) - max(from, span.lowerBound))
            }
            if !forced, health != .unknown, credited > 0 {
                let (counted, maintenance) = (health, underMaintenance)
                for resolution in Resolution.allCases {
                    withOpen(resolution, at: from) { $0.add(counted, underMaintenance: maintenance, milliseconds: credited) }
                }
            }
            countedTo = end
            guard end == minuteEnd else { continue }
            for resolution in Resolution.allCases {
                guard let open = self[resolution] else { continue }
                if open.start + resolution.milliseconds <= end { self[resolution] = nil }
                if !open.tally.isEmpty {
                    closing.append(TallyRow(panel: panel, resolution: resolution, start: open.start, watch: watch,
                                           tally: open.tally))
                }
            }
        }
    }

    /// Changes the open bucket of `resolution` that holds `time`, opening it if needed. Each bucket
    /// is reached in place: every panel's are counted at each save, and a copy of one would copy
    /// its durations too.
    private mutating func withOpen(_ resolution: Resolution, at time: Int64, _ body: (inout Tally) -> Void) {
        let start = resolution.start(of: time)
        switch resolution {
        case .minute: Self.change(&minute, startingAt: start, body)
        case .hour: Self.change(&hour, startingAt: start, body)
        case .day: Self.change(&day, startingAt: start, body)
        }
    }

    private static func change(_ bucket: inout HealthAggregator.Bucket?, startingAt start: Int64,
                               _ body: (inout Tally) -> Void) {
        if bucket?.start != start { bucket = HealthAggregator.Bucket(start: start) }
        body(&bucket!.tally)
    }
}
