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
}
