/// Deadlines by id, the soonest first (a binary min-heap): the probe loop's next wake-up in
/// O(log n) with thousands of probes waiting. An id may be pushed again; a stale entry is the
/// caller's to skip.
struct DeadlineHeap {
    private var entries: [(deadline: ContinuousClock.Instant, id: UInt64)] = []

    /// The soonest deadline.
    var first: ContinuousClock.Instant? { entries.first?.deadline }

    mutating func push(_ deadline: ContinuousClock.Instant, id: UInt64) {
        entries.append((deadline, id))
        var child = entries.count - 1
        while child > 0, case let parent = (child - 1) / 2, entries[child].deadline < entries[parent].deadline {
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the id of the soonest deadline, if it is not after `now`.
    mutating func popExpired(at now: ContinuousClock.Instant) -> UInt64? {
        guard let top = entries.first, top.deadline <= now else { return nil }
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].deadline < entries[smallest].deadline { smallest = left }
            if right < entries.count, entries[right].deadline < entries[smallest].deadline { smallest = right }
            guard smallest != parent else { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return top.id
    }
}
