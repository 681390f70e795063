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
        /// Seconds east of UTC before and from `instant`.
        public var offsetBefore: Int
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
        offset(at: Int(instant.timeIntervalSince1970.rounded(.down)))
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

    /// Where the wall clock reads `localSeconds`. Assumes no two transitions within two days of
    /// each other, which holds for every zone since the 1940s.
    public func instants(atLocal localSeconds: Int) -> WallClockInstants {
        // Offsets stay within ±26 hours, so the transition that matters lies within a day either side.
        let window = 26 * 3600
        guard let transition = transition(after: localSeconds - window), transition.instant <= localSeconds + window,
              transition.offsetBefore != transition.offsetAfter
        else {
            return .unique(localSeconds - offset(at: localSeconds))
        }
        let before = localSeconds - transition.offsetBefore
        let after = localSeconds - transition.offsetAfter
        switch (before < transition.instant, after >= transition.instant) {
        case (true, true): return .repeated(first: before, second: after)
        case (true, false): return .unique(before)
        case (false, true): return .unique(after)
        case (false, false): return .skipped(transition: transition.instant)
        }
    }

    /// The latest wall clock reading shown at any instant at or before `second`: later than the
    /// reading at `second` within an hour after the clock is set back.
    public func latestLocalSeconds(upTo second: Int) -> Int {
        let now = localSeconds(at: second)
        guard let transition = transition(atOrBefore: second), transition.offsetBefore > transition.offsetAfter else {
            return now
        }
        return max(now, transition.instant - 1 + transition.offsetBefore)
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
