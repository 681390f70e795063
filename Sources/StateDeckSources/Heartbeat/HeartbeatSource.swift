import FoundationEssentials
import StateDeck

/// A panel told of a job's runs by its pings (`heartbeat:` in a deck file): every `period`, or at
/// the times a cron `schedule` names in a time zone, each run allowed `grace` to come late.
public struct HeartbeatSource: Sendable, Hashable {
    public enum Expectation: Sendable, Hashable {
        case every(Duration)
        case schedule(CronSchedule)
    }

    public var expectation: Expectation
    public var grace: Duration
    /// The zone a schedule's times are in, and the messages' times: the machine's own by default.
    public var zone: ZoneRules
    /// The ping key the deck file sets (`key: ${BACKUP_PING_KEY}`); nil lets StateDeck make one
    /// and keep it.
    public var key: String?

    public init(expectation: Expectation, grace: Duration, zone: ZoneRules, key: String?) {
        self.expectation = expectation
        self.grace = grace
        self.zone = zone
        self.key = key
    }

    /// The core's heartbeat, pinged at `pingPath`.
    public func heartbeat(pingPath: String?) -> Heartbeat {
        var heartbeat = switch expectation {
        case .every(let period):
            Heartbeat.every(period, grace: grace, pingPath: pingPath)
        case .schedule(let schedule):
            Heartbeat(expects: "\(schedule.expression) (\(zone.name))", grace: grace, pingPath: pingPath) { [zone] run in
                schedule.next(after: run, in: zone)
            }
        }
        heartbeat.clockTime = { [zone] in zone.clockTime($0) }
        return heartbeat
    }

    /// The shortest key a deck file may set: a ping key is the only credential a ping needs.
    static let shortestKey = 16
    /// A key travels in a path: letters, digits, `-` and `_`.
    static func isKey(_ text: String) -> Bool {
        text.utf8.count >= shortestKey && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
