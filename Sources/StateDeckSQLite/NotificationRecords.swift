import FoundationEssentials
import StateDeckNotifications

/// The notifications' ledger as the store holds it: every outage and every delivery not done, in
/// memory (read at open, so that a notifier made later sees every earlier keep), and which of
/// them changed since the file last had them.
struct NotificationRecords {
    var outages: [String: OutageWatch] = [:]
    var pending: [PendingDelivery.ID: PendingDelivery] = [:]
    /// Deliveries read at open and not handed to a notifier yet.
    var leftByEarlierRun: Set<PendingDelivery.ID> = []
    /// Outage keys written or forgotten since the last save.
    var unsavedOutages: Set<String> = []
    /// Deliveries added or finished since the last save.
    var unsavedDeliveries: Set<PendingDelivery.ID> = []

    var hasUnsaved: Bool { !unsavedOutages.isEmpty || !unsavedDeliveries.isEmpty }

    mutating func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?) {
        if outages[key] != watch {
            outages[key] = watch
            unsavedOutages.insert(key)
        }
        if let delivery {
            pending[delivery.id] = delivery
            unsavedDeliveries.insert(delivery.id)
        }
    }

    mutating func finish(_ id: PendingDelivery.ID) {
        guard pending.removeValue(forKey: id) != nil else { return }
        leftByEarlierRun.remove(id)
        unsavedDeliveries.insert(id)
    }

    /// The earlier run's deliveries not finished yet, oldest first, once.
    mutating func takeLeftByEarlierRun() -> [PendingDelivery] {
        defer { leftByEarlierRun = [] }
        return leftByEarlierRun.compactMap { pending[$0] }
            .sorted { ($0.notification.at, $0.id.uuidString) < ($1.notification.at, $1.id.uuidString) }
    }

    mutating func markSaved() {
        unsavedOutages = []
        unsavedDeliveries = []
    }
}
