import FoundationEssentials

/// A time zone's offsets from UTC through time, read from the system's tz database
/// (`/usr/share/zoneinfo`, the Debian package `tzdata`) without Foundation's `TimeZone`, whose
/// named zones need ICU.
///
/// The offsets come from the file's transitions, then from its footer's POSIX TZ rule for every
/// instant after the last transition. Times are whole seconds since 1970-01-01 00:00 UTC; a wall
/// clock reading ("local seconds") is the same count on the zone's clock.
public struct ZoneRules: Sendable, Hashable {
    /// A change of offset.
    public struct Transition: Sendable, Hashable {
        /// The first second of the new offset, since 1970 in UTC.
        public var instant: Int
        /// Seconds east of UTC before `instant`.
        public var offsetBefore: Int
        /// Seconds east of UTC from `instant`.
        public var offsetAfter: Int
    }

    /// Where the wall clock shows a given reading.
    public enum WallClockInstants: Sendable, Hashable {
        /// Once: the usual case.
        case unique(Int)
        /// Twice, when the clock is set back; `first` under the earlier offset.
        case repeated(first: Int, second: Int)
        /// Never: the clock jumps over it when set forward, at `transition`, the first instant after the gap.
        case skipped(transition: Int)
    }

    /// The zone's name, such as `Europe/Paris`.
    public let name: String
    /// Offset changes, ascending; transitions that change only the abbreviation are left out.
    let transitions: [Transition]
    /// The offset before the first transition.
    let initialOffset: Int
    /// The rule after the last transition; nil when the last offset stays.
    let rule: POSIXRule?

    init(name: String, transitions: [Transition], initialOffset: Int, rule: POSIXRule?) {
        self.name = name
        self.transitions = transitions
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// Coordinated Universal Time: offset 0, always.
    public static let utc = ZoneRules(name: "UTC", transitions: [], initialOffset: 0, rule: nil)

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: Date) -> Int {
        offset(at: Self.second(of: instant))
    }

    /// The whole second of `instant` since 1970 in UTC, within ±30 million years.
    static func second(of instant: Date) -> Int {
        let seconds = instant.timeIntervalSince1970
        return seconds.isNaN ? 0 : Int(min(max(seconds, -1e15), 1e15).rounded(.down))
    }

    /// Seconds east of UTC at `second` since 1970 in UTC.
    public func offset(at second: Int) -> Int {
        guard let last = transitions.last else { return rule?.offset(at: second) ?? initialOffset }
        if second >= last.instant { return rule?.offset(at: second) ?? last.offsetAfter }
        guard let index = lastTransitionIndex(atOrBefore: second) else { return initialOffset }
        return transitions[index].offsetAfter
    }

    /// The clock reading at `second` since 1970 in UTC, as local seconds.
    public func localSeconds(at second: Int) -> Int { second + offset(at: second) }

    /// The time of day the wall clock here shows at `instant`, as messages write it: "03:02".
    public func clockTime(_ instant: Date) -> String {
        let local = localSeconds(at: Self.second(of: instant))
        let minuteOfDay = local.flooredDivision(by: 60) - local.flooredDivision(by: 86_400) * 1_440
        return "\(minuteOfDay / 600)\(minuteOfDay / 60 % 10):\(minuteOfDay % 60 / 10)\(minuteOfDay % 10)"
    }

    /// The date and the time of day the wall clock here shows at `instant`, to the minute:
    /// "5 January 2026, 14:02".
    public func dateAndTime(_ instant: Date) -> String {
        let date = CivilDate(second: Self.second(of: instant), offset: offset(at: instant))
        return "\(date.written), \(clockTime(instant))"
    }

    /// The latest transition at or before `second`, from the file's table or the footer's rule.
    public func transition(atOrBefore second: Int) -> Transition? {
        if let last = transitions.last, second >= last.instant, let rule {
            let ruled = rule.transition(atOrBefore: second)
            if let ruled, ruled.instant > last.instant { return ruled }
            return last
        }
        if transitions.isEmpty { return rule?.transition(atOrBefore: second) }
        return lastTransitionIndex(atOrBefore: second).map { transitions[$0] }
    }

    /// The first transition after `second`, from the file's table or the footer's rule.
    public func transition(after second: Int) -> Transition? {
        let next = lastTransitionIndex(atOrBefore: second).map { $0 + 1 } ?? 0
        if next < transitions.count { return transitions[next] }
        return rule?.transition(after: second)
    }

    /// Where the wall clock reads `localSeconds`.
    public func instants(atLocal localSeconds: Int) -> WallClockInstants {
        // Offsets stay within ±26 hours, so every instant that can show this reading lies within
        // a day and two hours either side, under the offset before or after a transition there.
        let window = 26 * 3600
        var nearby: [Transition] = []
        var second = localSeconds - window
        while let transition = transition(after: second), transition.instant <= localSeconds + window {
            nearby.append(transition)
            second = transition.instant
        }
        let offsets = [offset(at: localSeconds - window)] + nearby.map(\.offsetAfter)
        let instants = Set(offsets.map { localSeconds - $0 }.filter { self.localSeconds(at: $0) == localSeconds }).sorted()
        if instants.count >= 2 { return .repeated(first: instants[0], second: instants[1]) }
        if let instant = instants.first { return .unique(instant) }
        // In a gap: the transition that jumps over the reading.
        guard let gap = nearby.first(where: { $0.instant + $0.offsetAfter > localSeconds }) else {
            return .unique(localSeconds - offsets[0])
        }
        return .skipped(transition: gap.instant)
    }

    /// The latest wall clock reading shown at any instant at or before `second`: later than the
    /// reading at `second` for a while after the clock is set back.
    public func latestLocalSeconds(upTo second: Int) -> Int {
        var latest = localSeconds(at: second)
        var next = second
        // Only a transition within the last 26 hours can have shown a later reading.
        while let transition = transition(atOrBefore: next), transition.instant > second - 26 * 3600 {
            latest = max(latest, transition.instant - 1 + transition.offsetBefore)
            next = transition.instant - 1
        }
        return latest
    }

    /// The index of the last table transition at or before `second`; nil before the first.
    private func lastTransitionIndex(atOrBefore second: Int) -> Int? {
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle].instant <= second { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
