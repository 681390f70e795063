import FoundationEssentials

/// The clocks a history store counts time by: the wall clock that stamps changes and places
/// buckets, and a clock of the time the machine ran, which neither a jump of the wall clock nor
/// a suspended machine moves, so that such a jump is told from time that passed.
public struct HistoryClock: Sendable {
    public var wall: @Sendable () -> Date
    /// Nil trusts the wall clock to go forward only as time passes (a test's virtual clock).
    public var running: (@Sendable () -> Duration)?

    public init(wall: @escaping @Sendable () -> Date, running: (@Sendable () -> Duration)? = nil) {
        self.wall = wall
        self.running = running
    }

    /// The system's wall clock, and its suspending clock (CLOCK_MONOTONIC on Linux), which stops
    /// while the machine sleeps.
    public static var system: HistoryClock {
        let origin = SuspendingClock.now
        return HistoryClock(wall: { Date() }, running: { origin.duration(to: SuspendingClock.now) })
    }

    public func read() -> Reading {
        Reading(wall: wall(), running: running?())
    }

    /// Both clocks read at one moment.
    public struct Reading: Sendable {
        public var wall: Date
        public var running: Duration?

        public init(wall: Date, running: Duration? = nil) {
            self.wall = wall
            self.running = running
        }
    }
}

/// A stretch of time a history store watched its panels without a break: from its start, or a
/// jump of the wall clock, to its newest count. Time outside every watch is no data.
public struct HistoryWatch: Sendable, Equatable {
    /// Random, so that watches made by any process, or after any jump, never share one.
    public var id: Int64
    /// Milliseconds since 1970.
    public var started: Int64
    public var watchedTo: Int64
    /// Its saved hours and days hold every minute before this; the rest, up to `watchedTo`, is in
    /// its saved minute.
    public var talliedTo: Int64

    public init(id: Int64, started: Int64, watchedTo: Int64, talliedTo: Int64) {
        self.id = id
        self.started = started
        self.watchedTo = watchedTo
        self.talliedTo = talliedTo
    }

    /// A watch starting at `time`.
    static func starting(at time: Int64) -> HistoryWatch {
        HistoryWatch(id: Int64.random(in: 1...Int64.max), started: time, watchedTo: time, talliedTo: time)
    }

    /// The wall time (milliseconds since 1970) this watch credits no time to, of `watches` (this
    /// one may be among them): before it started, and every stretch another of them watched. A
    /// jump back of the wall clock starts a watch at instants an earlier one counted already, and
    /// their first count stands: the new watch credits time again once the wall clock has passed
    /// them, so no bucket, summed across watches, holds more time than it spans. Merged, in order.
    func uncredited(among watches: [HistoryWatch]) -> [Range<Int64>] {
        let spans = [Int64.min..<started] + watches.filter { $0.id != id && $0.started < $0.watchedTo }
            .map { $0.started..<$0.watchedTo }
        var merged: [Range<Int64>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
