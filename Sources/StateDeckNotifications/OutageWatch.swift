import FoundationEssentials
import StateDeck

/// One panel's outage as one notify rule follows it. Kept in the history store, so that a
/// restart neither repeats a notification nor loses one.
public struct OutageWatch: Sendable, Hashable, Codable {
    /// Failed loads in a row.
    public var failures = 0
    /// The first failed load of the outage; nil while up.
    public var downSince: Date?
    /// When the failure was told; nil until it is.
    public var toldAt: Date?
    public var remindersSent = 0
    /// The newest error of the outage.
    public var error: DeckNotification.ErrorSummary?
    /// Good results in a row since the last failed one, while a told failure waits for the
    /// rule's `successes`; and when the first of them came, when the outage ended if they are enough.
    public var successes = 0
    public var upSince: Date?
    /// The failure was decided under a maintenance window and not sent: told as new if the panel
    /// is still down when the window ends (``Notifier/Quiet``).
    public var silenced = false
    /// The failure was due and held (the panel flaps, or a panel it depends on is down): told
    /// when its rule still holds once that is over.
    public var held = false
    /// When the outage ended, for a told one whose recovery waits for a maintenance window or
    /// flapping to end.
    public var recoveredAt: Date?
    /// The name of the target the outage is told to ("webhook hooks.example"): the notification
    /// log names it when the outage ends with its entry removed, once no deck names the target.
    public var target: String?

    public init() {}

    /// Whether a failure was told and no recovery yet.
    public var isTold: Bool { toldAt != nil }

    /// A load failed at `date` with `error`: the failure, once `rule` holds.
    public mutating func failed(with error: DeckNotification.ErrorSummary, at date: Date, rule: NotifyRule) -> DeckNotification.Event? {
        failures += 1
        successes = 0
        upSince = nil
        recoveredAt = nil
        downSince = downSince ?? date
        self.error = error
        return due(at: date, rule: rule)
    }

    /// A load succeeded at `date`. An outage never told ends at once; a told one ends with the
    /// recovery once `rule`'s good results in a row have come. Returns the event, when the outage
    /// began and when it ended (the first of those results).
    public mutating func succeeded(at date: Date, rule: NotifyRule) -> (event: DeckNotification.Event, downSince: Date, upSince: Date)? {
        guard isTold, let downSince else {
            self = OutageWatch()
            return nil
        }
        // Its recovery was decided already, and waits for a quiet to end.
        guard recoveredAt == nil else { return nil }
        successes += 1
        let upSince = upSince ?? date
        self.upSince = upSince
        guard successes >= rule.successes else { return nil }
        self = OutageWatch()
        return (.recovery, downSince, upSince)
    }

    /// This outage's failure withdrew `recovery`, which had not gone out: the target's last word
    /// stands, down since the outage it was told of began, and this outage is that one going on
    /// (a restart then knows the failure still going out as the one that tells it).
    public mutating func resumeOutage(toldBy recovery: PendingDelivery) {
        downSince = recovery.notification.downSince
    }

    /// The failure kept quiet under a maintenance window, told as new at `date`: the outage counts
    /// from then.
    public mutating func unsilence(at date: Date) {
        silenced = false
        downSince = date
        toldAt = date
        remindersSent = 0
    }

    /// What is due at `date` without a new load: the failure once it has been down long enough,
    /// or a reminder. Reminders missed meanwhile (the process was stopped) are not sent in a
    /// burst: one is, and the count moves on to the reminders the time past would have sent.
    public mutating func due(at date: Date, rule: NotifyRule) -> DeckNotification.Event? {
        guard let downSince else { return nil }
        guard let toldAt else {
            let enoughFailures = rule.failures.map { failures >= $0 } ?? true
            let downLongEnough = rule.down.map { date >= downSince.adding($0) } ?? true
            guard enoughFailures && downLongEnough else { return nil }
            self.toldAt = date
            return .failure
        }
        guard let remind = rule.remind, remindersSent < remind.times,
              date >= toldAt.adding(remind.every * (remindersSent + 1)) else { return nil }
        let elapsed = Int(date.timeIntervalSince(toldAt) / (remind.every / .seconds(1)))
        remindersSent = min(remind.times, max(remindersSent + 1, elapsed))
        return .reminder
    }

    /// When ``due(at:rule:)`` may next have something: the time down the rule asks for, or the
    /// next reminder; nil when only a load can change anything.
    public func nextDue(rule: NotifyRule) -> Date? {
        // What the quiet holds back waits for it to end, not for a time.
        guard let downSince, !held, !silenced, recoveredAt == nil else { return nil }
        guard let toldAt else {
            guard let down = rule.down, rule.failures.map({ failures >= $0 }) ?? true else { return nil }
            return downSince.adding(down)
        }
        guard let remind = rule.remind, remindersSent < remind.times else { return nil }
        return toldAt.adding(remind.every * (remindersSent + 1))
    }
}

extension OutageWatch {
    private enum CodingKeys: String, CodingKey {
        case failures, downSince, toldAt, remindersSent, error, successes, upSince, silenced, held, recoveredAt, target
    }

    /// Reads a watch kept before good results were counted (no `successes`, no `upSince`) as one
    /// with none yet, one kept before notifications were quieted as one quieted by nothing, and one
    /// kept before it named its target as one of no known target.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        failures = try container.decode(Int.self, forKey: .failures)
        downSince = try container.decodeIfPresent(Date.self, forKey: .downSince)
        toldAt = try container.decodeIfPresent(Date.self, forKey: .toldAt)
        remindersSent = try container.decode(Int.self, forKey: .remindersSent)
        error = try container.decodeIfPresent(DeckNotification.ErrorSummary.self, forKey: .error)
        successes = try container.decodeIfPresent(Int.self, forKey: .successes) ?? 0
        upSince = try container.decodeIfPresent(Date.self, forKey: .upSince)
        silenced = try container.decodeIfPresent(Bool.self, forKey: .silenced) ?? false
        held = try container.decodeIfPresent(Bool.self, forKey: .held) ?? false
        recoveredAt = try container.decodeIfPresent(Date.self, forKey: .recoveredAt)
        target = try container.decodeIfPresent(String.self, forKey: .target)
    }
}

extension Date {
    func adding(_ duration: Duration) -> Date {
        addingTimeInterval(duration / .seconds(1))
    }
}
