/// The hub's id counter and the encoded bytes of its newest events, oldest dropped first.
///
/// Bounded twice: at most `capacity` events and at most `byteLimit` bytes, so a burst of large
/// events cannot hold more memory than a few small ones would. Ids are consecutive, so only the
/// bytes are kept: the newest held event is `lastID`, and the others count back from it.
struct EventHistory {
    /// The id of the newest event issued, or one less than the first id before any.
    private(set) var lastID: UInt64
    private let capacity: Int
    private let byteLimit: Int
    /// Held events, oldest first, from `oldest` on; the slots before it wait to be compacted.
    private var events: [[UInt8]] = []
    private var oldest = 0
    /// The bytes of the events held.
    private(set) var byteCount = 0

    init(firstID: UInt64, capacity: Int, byteLimit: Int = .max) {
        precondition(firstID > 0, "event ids start at 1 or later, so 0 can stand for 'before any'")
        precondition(capacity >= 0 && byteLimit >= 0, "history limits cannot be negative")
        lastID = firstID - 1
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// How many events are held.
    var count: Int { events.count - oldest }

    /// Records the bytes of event `lastID + 1`, which becomes the newest; the oldest go while
    /// either limit is passed (an event larger than the byte limit is not held at all).
    mutating func append(_ bytes: [UInt8]) {
        lastID += 1
        events.append(bytes)
        byteCount += bytes.count
        while count > capacity || byteCount > byteLimit {
            byteCount -= events[oldest].count
            events[oldest] = []
            oldest += 1
        }
        // Compacted once the dropped slots are half the array: amortized constant time.
        if oldest > 0, oldest * 2 >= events.count {
            events.removeFirst(oldest)
            oldest = 0
        }
    }

    /// Continues the numbering at `id` (later than `lastID + 1`): the events held are dropped,
    /// since a client that saw one of them would miss the ids skipped.
    mutating func skip(to id: UInt64) {
        precondition(id > lastID, "event ids only increase")
        lastID = id - 1
        events = []
        oldest = 0
        byteCount = 0
    }

    /// The events after `id`, oldest first, when every one of them is still held; nil when some
    /// have been dropped or `id` is newer than anything issued.
    func events(after id: UInt64) -> [[UInt8]]? {
        let beforeOldest = lastID - UInt64(count)
        guard id >= beforeOldest, id <= lastID else { return nil }
        return Array(events[(oldest + Int(id - beforeOldest))...])
    }
}
