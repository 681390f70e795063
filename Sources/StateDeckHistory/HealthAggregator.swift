import FoundationEssentials
import StateDeck

/// Turns panel changes into tallies of minutes, hours and days, as time passes.
///
/// Each panel's health changes only with results (of loads and pushes) that are not forced; the
/// time between two changes is counted in the health it had, split at bucket edges. A bucket
/// is handed out as a ``TallyRow`` once time has passed its end; until then it is open, and
/// ``openTally(of:_:at:)`` tells what it holds so far. Time forced by a debug command counts
/// nowhere, and neither does time before a panel was first heard of.
public struct HealthAggregator: Sendable {
    /// One panel's health, and its open buckets.
    public struct Track: Sendable {
        public var health: Health = .unknown
        /// When the current health began, in milliseconds since 1970.
        public var since: Int64
        /// Time is counted up to here.
        var countedTo: Int64
        var forced = false
        /// The open minute, hour and day, by start.
        var open: [Resolution: (start: Int64, tally: Tally)] = [:]
    }

    public private(set) var tracks: [String: Track] = [:]
    /// Buckets ended since `takeClosedRows()` was last called.
    private var closed: [TallyRow] = []

    public init() {}

    /// Continues panel `panel` from a store: its health since `since`, counted from `now` on (the
    /// server was not running before), with the open hour and day holding `hour` and `day`.
    public mutating func resume(_ panel: String, health: Health, since: Int64, now: Int64,
                                hour: Tally, day: Tally) {
        var track = Track(health: health, since: since, countedTo: now)
        track.open[.hour] = (Resolution.hour.start(of: now), hour)
        track.open[.day] = (Resolution.day.start(of: now), day)
        tracks[panel] = track
    }

    /// Counts time up to the change, then applies it.
    public mutating func apply(_ change: PanelChange) {
        let at = change.at.millisecondsSince1970
        var track = tracks[change.panel] ?? Track(since: at, countedTo: at)
        advance(&track, panel: change.panel, to: at)
        if change.cause == .debug {
            track.forced = true
        } else {
            track.forced = false
            update(&track, with: change, at: at)
        }
        tracks[change.panel] = track
    }

    private func update(_ track: inout Track, with change: PanelChange, at: Int64) {
        let health: Health
        switch (change.state, change.cause) {
        case (.loaded, .load), (.loaded, .push): health = .up
        case (.error, .load), (.error, .push): health = .down
        case (.loading, _) where track.health == .unknown: health = .loading
        default: return
        }
        if health != .loading {
            let milliseconds = change.duration.map { Int64(($0 / .milliseconds(1)).rounded()) }
            track.countLoad(failed: health == .down, milliseconds: milliseconds, at: at)
        }
        if health != track.health {
            track.health = health
            track.since = at
        }
    }

    /// Counts every panel's time up to `date`, ending the buckets that `date` has passed.
    public mutating func advance(to date: Date) {
        let now = date.millisecondsSince1970
        for panel in tracks.keys {
            var track = tracks[panel]!
            advance(&track, panel: panel, to: now)
            tracks[panel] = track
        }
    }

    /// The rows of the buckets ended since the last call, in the order they ended.
    public mutating func takeClosedRows() -> [TallyRow] {
        defer { closed = [] }
        return closed
    }

    /// The buckets of `resolution` that `panel` has not handed out yet, with time counted up to
    /// `date`: those `date` has ended since the last count, and the open one.
    public func unsavedRows(of panel: String, _ resolution: Resolution, at date: Date) -> [TallyRow] {
        guard var track = tracks[panel] else { return [] }
        var scratch = HealthAggregator()
        scratch.advance(&track, panel: panel, to: date.millisecondsSince1970)
        var rows = scratch.closed.filter { $0.resolution == resolution }
        if let open = track.open[resolution], !open.tally.isEmpty {
            rows.append(TallyRow(panel: panel, resolution: resolution, start: open.start, tally: open.tally))
        }
        return rows
    }

    /// Counts `track`'s time from where it was counted to `now`, bucket by bucket.
    private mutating func advance(_ track: inout Track, panel: String, to now: Int64) {
        while track.countedTo < now {
            let minuteEnd = Resolution.minute.start(of: track.countedTo) + Resolution.minute.milliseconds
            let end = min(now, minuteEnd)
            if !track.forced {
                track.count(track.health, from: track.countedTo, to: end)
            }
            track.countedTo = end
            if end == minuteEnd { closeBuckets(&track, panel: panel, before: end) }
        }
    }

    /// Hands out the open buckets that end at or before `edge`, and rolls each minute into its
    /// hour and day.
    private mutating func closeBuckets(_ track: inout Track, panel: String, before edge: Int64) {
        for resolution in Resolution.allCases {
            guard let open = track.open[resolution], open.start + resolution.milliseconds <= edge else { continue }
            track.open[resolution] = nil
            guard !open.tally.isEmpty else { continue }
            closed.append(TallyRow(panel: panel, resolution: resolution, start: open.start, tally: open.tally))
        }
    }

}

extension HealthAggregator.Track {
    /// Adds time in `health` to the open buckets of every resolution.
    mutating func count(_ health: Health, from start: Int64, to end: Int64) {
        guard health != .unknown else { return }
        for resolution in Resolution.allCases {
            withOpen(resolution, at: start) { $0.add(health, milliseconds: end - start) }
        }
    }

    mutating func countLoad(failed: Bool, milliseconds: Int64?, at: Int64) {
        for resolution in Resolution.allCases {
            withOpen(resolution, at: at) { $0.countLoad(failed: failed, milliseconds: milliseconds) }
        }
    }

    private mutating func withOpen(_ resolution: Resolution, at time: Int64, _ body: (inout Tally) -> Void) {
        let start = resolution.start(of: time)
        var bucket = open[resolution].flatMap { $0.start == start ? $0 : nil } ?? (start: start, tally: Tally())
        body(&bucket.tally)
        open[resolution] = bucket
    }
}
