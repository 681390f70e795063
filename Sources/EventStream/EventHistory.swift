/// The hub's id counter and the encoded bytes of its newest events, oldest dropped first.
///
/// Ids are consecutive, so only the bytes are kept: the newest held event is `lastID`, and the
/// others count back from it.
struct EventHistory {
    /// The id of the newest event issued, or one less than the first id before any.
    private(set) var lastID: UInt64
    private let capacity: Int
    private var ring: [[UInt8]] = []
    /// Where the oldest event sits once the ring is full (0 until then).
    private var head = 0

    init(firstID: UInt64, capacity: Int) {
        precondition(firstID > 0, "event ids start at 1 or later, so 0 can stand for 'before any'")
        precondition(capacity >= 0, "history capacity cannot be negative")
        lastID = firstID - 1
        self.capacity = capacity
        ring.reserveCapacity(capacity)
    }

    /// Records the bytes of event `lastID + 1`, which becomes the newest.
    mutating func append(_ bytes: [UInt8]) {
        lastID += 1
        guard capacity > 0 else { return }
        if ring.count < capacity {
            ring.append(bytes)
        } else {
            ring[head] = bytes
            head = (head + 1) % capacity
        }
    }

    /// The events after `id`, oldest first, when every one of them is still held; nil when some
    /// have been dropped or `id` is newer than anything issued.
    func events(after id: UInt64) -> [[UInt8]]? {
        let beforeOldest = lastID - UInt64(ring.count)
        guard id >= beforeOldest, id <= lastID else { return nil }
        let skipped = Int(id - beforeOldest)
        return (skipped..<ring.count).map { ring[(head + $0) % ring.count] }
    }
}
