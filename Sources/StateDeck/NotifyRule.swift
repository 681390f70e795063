/// When a panel's outage is told, and how often it is told again: a deck file's `notify:` entry
/// without its target, or the rule of the DSL's ``Panel/notify(_:_:)``.
///
/// | what | rule |
/// | --- | --- |
/// | failure | once per outage, when the panel has failed `failures` loads in a row and has been down `down` (each when set; both when both are) |
/// | reminder | only with `remind`: every `every` after the failure was told, at most `times` |
/// | recovery | once, when a told failure is followed by `successes` good results in a row (one by default), with how long it was down: from its first failed load to the first of those results |
/// | debug-forced states | never count |
/// | gathering | what is decided for the same target within `gather` of the first goes to it as one message at the window's end (``GatheredNotification``); `.zero` sends each at once |
///
/// The defaults wait for 3 failed loads in a row: one lost check never wakes anyone; and gather
/// for 10 s: a storm of failures is one message, not hundreds.
public struct NotifyRule: Sendable, Hashable {
    /// "Still down" reminders, opt-in.
    public struct Reminder: Sendable, Hashable {
        public var every: Duration
        public var times: Int

        public init(every: Duration, times: Int) {
            self.every = every
            self.times = times
        }
    }

    /// Failed loads in a row before the failure is told; nil when only `down` counts.
    public var failures: Int?
    /// Time down before the failure is told; nil when only `failures` counts.
    public var down: Duration?
    public var remind: Reminder?
    /// Good results in a row before a recovery is told: a panel that fails every other check is
    /// not told up again at each good one.
    public var successes: Int
    /// How long the first notification decided for an idle target waits for others to tell with
    /// it; `.zero` (`gather: off`) sends each at once.
    public var gather: Duration

    /// Gathering's default window.
    public static let defaultGather = Duration.seconds(10)

    public init(failures: Int? = 3, down: Duration? = nil, successes: Int = 1, remind: Reminder? = nil,
                gather: Duration = defaultGather) {
        precondition(failures != nil || down != nil, "a rule needs failures, down, or both")
        precondition(successes >= 1, "a recovery needs at least one good result")
        self.failures = failures
        self.down = down
        self.successes = successes
        self.remind = remind
        self.gather = gather
    }

    /// Told after `count` failed loads in a row.
    public static func failures(_ count: Int) -> NotifyRule {
        NotifyRule(failures: count)
    }

    /// Told once the panel has been down for `duration`, however many loads failed.
    public static func down(_ duration: Duration) -> NotifyRule {
        NotifyRule(failures: nil, down: duration)
    }

    /// This rule, telling a recovery only after `count` good results in a row.
    public func recovering(after count: Int) -> NotifyRule {
        var rule = self
        rule.successes = count
        return rule
    }

    /// This rule with "still down" reminders every `every`, at most `times`.
    public func reminding(every: Duration, times: Int) -> NotifyRule {
        var rule = self
        rule.remind = Reminder(every: every, times: times)
        return rule
    }

    /// This rule, gathering within `window` (`.zero`: each notification sent at once).
    public func gathering(_ window: Duration) -> NotifyRule {
        var rule = self
        rule.gather = window
        return rule
    }
}
