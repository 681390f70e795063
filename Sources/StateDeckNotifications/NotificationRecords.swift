import FoundationEssentials

/// The notifications' ledger as a history store holds it, whatever its database: every outage and
/// every delivery not done, in memory (read at open, so that a notifier made later sees every
/// earlier keep), and which of them changed since the database last had them.
///
/// A store keeps outages as `key → watch` and deliveries as `id → key, at, notification`, the
/// watch and the delivery as JSON documents.
public struct NotificationRecords: Sendable {
    public private(set) var outages: [String: OutageWatch] = [:]
    private var pending: [PendingDelivery.ID: PendingDelivery] = [:]
    /// Deliveries read at open and not handed to a notifier yet.
    private var leftByEarlierRun: Set<PendingDelivery.ID> = []
    /// Outage keys written or forgotten since the last save.
    private var unsavedOutages: Set<String> = []
    /// Deliveries added or finished since the last save.
    private var unsavedDeliveries: Set<PendingDelivery.ID> = []
    /// The ``PendingDelivery/sequence`` of the next delivery kept.
    private var nextSequence: Int64 = 1

    public init() {}

    public var hasUnsaved: Bool { !unsavedOutages.isEmpty || !unsavedDeliveries.isEmpty }

    /// Whether the database has delivery `id` as these records do (kept, or forgotten).
    public func isWritten(_ id: PendingDelivery.ID) -> Bool { !unsavedDeliveries.contains(id) }

    /// A change the database is to make.
    public enum Write: Sendable {
        case keepOutage(key: String, watch: String)
        case forgetOutage(key: String)
        case keepDelivery(id: String, key: String, at: Date, delivery: String)
        case forgetDelivery(id: String)
    }

    /// The records a store reads: outages' `(key, watch)` and deliveries' documents, every delivery
    /// left to the next notifier. A row that does not decode (written by hand) is skipped.
    public init(outages stored: [(key: String, watch: String)], deliveries: [String]) {
        let decoder = JSONDecoder()
        for (key, json) in stored {
            guard let watch = try? decoder.decode(OutageWatch.self, from: Data(json.utf8)) else { continue }
            outages[key] = watch
        }
        for json in deliveries {
            guard let delivery = try? decoder.decode(PendingDelivery.self, from: Data(json.utf8)) else { continue }
            pending[delivery.id] = delivery
            leftByEarlierRun.insert(delivery.id)
            nextSequence = max(nextSequence, (delivery.sequence ?? 0) + 1)
        }
    }

    /// The writes that bring the database up to date, until ``markSaved()``.
    public var unsavedWrites: [Write] {
        let encoder = JSONEncoder()
        // Encoding these types does not fail; if it did, the NOT NULL column would refuse the row.
        func json(_ value: some Encodable) -> String {
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        let outageWrites: [Write] = unsavedOutages.map { key in
            outages[key].map { .keepOutage(key: key, watch: json($0)) } ?? .forgetOutage(key: key)
        }
        let deliveryWrites: [Write] = unsavedDeliveries.map { id in
            pending[id].map {
                .keepDelivery(id: id.uuidString, key: $0.key, at: $0.notification.at, delivery: json($0))
            } ?? .forgetDelivery(id: id.uuidString)
        }
        return outageWrites + deliveryWrites
    }

    public mutating func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?) {
        if outages[key] != watch {
            outages[key] = watch
            unsavedOutages.insert(key)
        }
        if var delivery {
            delivery.sequence = nextSequence
            nextSequence += 1
            pending[delivery.id] = delivery
            unsavedDeliveries.insert(delivery.id)
        }
    }

    /// Makes deliveries `ids` still to deliver wait to be written again, as they go out: a write
    /// now says whether the database takes writes, not only whether it took them when they were
    /// decided.
    public mutating func rewrite(_ ids: [PendingDelivery.ID]) {
        for id in ids where pending[id] != nil { unsavedDeliveries.insert(id) }
    }

    public mutating func finish(_ id: PendingDelivery.ID) {
        guard pending.removeValue(forKey: id) != nil else { return }
        leftByEarlierRun.remove(id)
        unsavedDeliveries.insert(id)
    }

    /// Forgets the outages, and every delivery owed, sent or not, kept under a key `keys` does not hold.
    public mutating func forget(keysOutside keys: Set<String>) {
        for key in outages.keys where !keys.contains(key) { keep(nil, for: key, delivering: nil) }
        for (id, delivery) in pending where !keys.contains(delivery.key) { finish(id) }
    }

    /// The earlier run's deliveries not finished yet, in the order they were decided, once
    /// (those an older StateDeck kept first, by time).
    public mutating func takeLeftByEarlierRun() -> [PendingDelivery] {
        defer { leftByEarlierRun = [] }
        return leftByEarlierRun.compactMap { pending[$0] }.sorted {
            ($0.sequence ?? 0, $0.notification.at, $0.id.uuidString) < ($1.sequence ?? 0, $1.notification.at, $1.id.uuidString)
        }
    }

    /// Makes every outage and delivery not done wait to be saved again: what the store had saved
    /// is gone.
    public mutating func markAllUnsaved() {
        unsavedOutages = Set(outages.keys)
        unsavedDeliveries = Set(pending.keys)
    }

    public mutating func markSaved() {
        unsavedOutages = []
        unsavedDeliveries = []
    }
}
