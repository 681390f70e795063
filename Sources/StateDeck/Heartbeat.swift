import FoundationEssentials

/// What a heartbeat panel expects of a job that pings it when it runs (a cron job, a backup): the
/// panel loads nothing, and its results are the job's pings (``Deck/ping(panel:_:body:)``).
///
/// | what came | the panel shows | its health |
/// | --- | --- | --- |
/// | nothing yet | its initial state, waiting for the first ping | unknown: no data |
/// | a ping | the body it sent, as info | up |
/// | a start | what it showed, running since then | unchanged |
/// | a failure (`/fail`, an exit status but 0) | a *Job failed* card with the body it sent | down |
/// | nothing by the time the next run is due plus the grace | a *No ping* card: since when, expected by when | down |
/// | no end within the grace of a start | a *No ping* card: started when, still running | down |
///
/// A late run is not a load: it counts no load and no failure in the tallies, only time down. A
/// run's duration, from its start to its end, counts as a load's.
public struct Heartbeat: Sendable {
    /// When the run after one at a date is due: a period after it, or a schedule's next time.
    public var nextDue: @Sendable (Date) -> Date?
    /// How late a run may come before the panel is down; also how long a started run may take.
    public var grace: Duration
    /// How the expectation reads on the card: "every 1 h", "0 3 * * * (Europe/Paris)".
    public var expects: String
    /// The path a job pings, which an operator's page shows after its own origin; nil when the panel is
    /// pinged only through ``Deck/ping(panel:_:body:)``.
    public var pingPath: String?
    /// A time of day as the panel's messages write it ("03:02"): in the schedule's time zone.
    public var clockTime: @Sendable (Date) -> String = Heartbeat.utcClockTime

    public init(expects: String, grace: Duration, pingPath: String? = nil, nextDue: @escaping @Sendable (Date) -> Date?) {
        self.expects = expects
        self.grace = grace
        self.pingPath = pingPath
        self.nextDue = nextDue
    }

    /// "03:02 UTC": the hours and minutes of the deck's own timestamps ("2026-11-22T03:02:00.000Z").
    public static let utcClockTime: @Sendable (Date) -> String = { date in
        DeckJSON.timestamp(date).dropFirst(11).prefix(5) + " UTC"
    }

    /// Where the panel stands, given its pings; it says the grace with the expectation, as people
    /// read them together.
    func status(_ pings: HeartbeatPings) -> HeartbeatStatus {
        HeartbeatStatus(expects: "\(expects), \(grace.lengthText) grace", graceMs: Int(grace / .milliseconds(1)), hasPingURL: pingPath != nil,
                        lastPing: pings.last, lastRun: pings.lastRun, runningSince: pings.started?.date,
                        lateAt: pings.lateAt)
    }

    /// A job that runs every `period`.
    public static func every(_ period: Duration, grace: Duration, pingPath: String? = nil) -> Heartbeat {
        Heartbeat(expects: "every \(period.lengthText)", grace: grace, pingPath: pingPath) { run in
            run.addingTimeInterval(period / .seconds(1))
        }
    }
}

extension Panel {
    /// A panel its job pings (``Deck/ping(panel:_:body:)``) as `heartbeat` expects, instead of one
    /// that loads.
    public init(_ id: String, title: String, heartbeat: Heartbeat) {
        self.init(id, title: title) { throw Heartbeat.loadsNothing }
        self.heartbeat = heartbeat
    }
}

extension Heartbeat {
    /// What loading a heartbeat panel would throw, though its deck never loads it.
    public static let loadsNothing = PanelError(.unknown, message: "A heartbeat panel loads nothing: its job pings it.")
}

/// What a job's ping says.
public enum PingSignal: Sendable, Equatable {
    /// The run ended well (a ping, or exit status 0).
    case success
    /// A run began; its end is expected within the grace.
    case start
    /// The run failed: `/fail`, or the non-zero exit status it ended with.
    case failure(exitStatus: Int?)
}

/// A job's ping of heartbeat panel `panel`, as ``Deck/ping(_:)`` takes many at once.
public struct Ping: Sendable, Equatable {
    public var panel: String
    public var signal: PingSignal
    /// What the job sent: the info of a run that ended well, the detail of one that failed.
    public var body: String

    public init(panel: String, _ signal: PingSignal, body: String) {
        self.panel = panel
        self.signal = signal
        self.body = body
    }
}

/// A heartbeat panel's expectation and where it stands, as the page draws it.
public struct HeartbeatStatus: Sendable, Equatable, Encodable {
    /// The expectation and its grace, as people read them: "every 1 h, 10 min grace".
    public var expects: String
    /// The grace in milliseconds.
    public var graceMs: Int
    /// Whether a job pings it at a URL. The URL itself holds the ping's key, so it is never part of
    /// a state every viewer reads: an operator asks for it (`GET /api/panels/{id}/ping`).
    public var hasPingURL: Bool
    /// When the newest ping came, of any kind.
    public var lastPing: Date?
    /// When the newest run ended (well or not): the next is due after it.
    public var lastRun: Date?
    /// When the run in progress began, if one did.
    public var runningSince: Date?
    /// When the panel goes down unless a ping comes first; nil while it waits for its first.
    public var lateAt: Date?
}

extension HeartbeatStatus {
    private enum CodingKeys: String, CodingKey {
        case expects, graceMs, hasPingURL, lastPing, lastRun, runningSince, lateAt
    }

    /// Times as the rest of the state writes them; nil ones as JSON null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(expects, forKey: .expects)
        try container.encode(graceMs, forKey: .graceMs)
        try container.encode(hasPingURL, forKey: .hasPingURL)
        try container.encode(lastPing.map(DeckJSON.timestamp), forKey: .lastPing)
        try container.encode(lastRun.map(DeckJSON.timestamp), forKey: .lastRun)
        try container.encode(runningSince.map(DeckJSON.timestamp), forKey: .runningSince)
        try container.encode(lateAt.map(DeckJSON.timestamp), forKey: .lateAt)
    }
}
