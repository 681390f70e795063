/// The hub's id counter and the encoded bytes of its newest events, oldest dropped first.
///
/// Bounded twice: at most `capacity` events and at most `byteLimit` bytes, so a burst of large
/// events cannot hold more memory than a few small ones would. A hub's own ids are consecutive,
/// but ids numbered elsewhere may jump (a cluster's new leader numbers from the time), so each
/// event is held with its id, and a client is caught up only from an id that was issued.
struct EventHistory {
    /// The id of the newest event issued, or one less than the first id before any.
    private(set) var lastID: UInt64
    /// Events issued, counted: ids tell nothing of how many when they jump.
    private(set) var appendedCount: UInt64 = 0
    private let capacity: Int
    private let byteLimit: Int
    /// Held events, oldest first, from `oldest` on; the slots before it wait to be compacted.
    private var events: [(id: UInt64, bytes: [UInt8])] = []
    private var oldest = 0
    /// The id just before the oldest held event (the newest dropped one, or before any, the one
    /// before the first id): a client naming it missed exactly the events held. Nil after a gap:
    /// a client that saw the events before it missed more than the events held.
    private var beforeOldest: UInt64?
    /// The bytes of the events held.
    private(set) var byteCount = 0

    init(firstID: UInt64, capacity: Int, byteLimit: Int = .max) {
        precondition(firstID > 0, "event ids start at 1 or later, so 0 can stand for 'before any'")
        precondition(capacity >= 0 && byteLimit >= 0, "history limits cannot be negative")
        lastID = firstID - 1
        beforeOldest = lastID
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// How many events are held.
    var count: Int { events.count - oldest }

    /// Records the bytes of event `lastID + 1`, which becomes the newest; the oldest go while
    /// either limit is passed (an event larger than the byte limit is not held at all).
    mutating func append(_ bytes: [UInt8]) {
        append(bytes, id: lastID + 1)
    }

    /// Records the bytes of event `id` (later than `lastID`), which becomes the newest. The ids
    /// between are ones nobody issued, unless `afterGap`: then the events held are dropped, since
    /// a client that saw one of them would miss the events skipped.
    mutating func append(_ bytes: [UInt8], id: UInt64, afterGap: Bool = false) {
        precondition(id > lastID, "event ids only increase")
        if afterGap {
            events = []
            oldest = 0
            byteCount = 0
            beforeOldest = nil
        }
        lastID = id
        appendedCount += 1
        events.append((id, bytes))
        byteCount += bytes.count
        while count > capacity || byteCount > byteLimit {
            byteCount -= events[oldest].bytes.count
            beforeOldest = events[oldest].id
            events[oldest].bytes = []
            oldest += 1
        }
        // Compacted once the dropped slots are half the array: amortized constant time.
        if oldest > 0, oldest * 2 >= events.count {
            events.removeFirst(oldest)
            oldest = 0
        }
    }

    /// The events after `id`, oldest first, when `id` was issued and every event after it is
    /// still held; nil otherwise (dropped, after a gap, or an id nobody issued).
    func events(after id: UInt64) -> [[UInt8]]? {
        let held = events[oldest...]
        if id == beforeOldest { return held.map(\.bytes) }
        // Ids increase: a binary search finds `id` among those held.
        var low = held.startIndex
        var high = held.endIndex
        while low < high {
            let middle = (low + high) / 2
            if held[middle].id < id { low = middle + 1 } else { high = middle }
        }
        guard low < held.endIndex, held[low].id == id else { return nil }
        return held[(low + 1)...].map(\.bytes)
    }
}
