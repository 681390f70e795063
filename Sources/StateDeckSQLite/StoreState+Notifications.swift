import FoundationEssentials
import SQLite
import StateDeckHistory
import StateDeckNotifications

extension StoreState {
    /// Reads the outages and the deliveries not done.
    mutating func readNotifications() throws(SQLiteError) {
        var outages: [(key: String, watch: String)] = []
        let outageRows = try statement("SELECT key, watch FROM notify_outages")
        try outageRows.bind()
        defer { outageRows.reset() }
        while try outageRows.step() {
            if let key = outageRows.text(0), let json = outageRows.text(1) { outages.append((key, json)) }
        }
        var deliveries: [String] = []
        let outbox = try statement("SELECT notification FROM notify_outbox")
        try outbox.bind()
        defer { outbox.reset() }
        while try outbox.step() {
            if let json = outbox.text(0) { deliveries.append(json) }
        }
        notifications = NotificationRecords(outages: outages, deliveries: deliveries)
    }

    /// Writes the ledger's changes in a transaction of their own, now rather than with the next
    /// batch. A failure leaves them to the writer's next save, which reports it as `trouble`.
    mutating func saveNotifications() {
        guard notifications.hasUnsaved else { return }
        if (try? database.transaction({ () throws(SQLiteError) in try writeNotifications() })) != nil {
            notifications.markSaved()
        }
    }

    /// Writes the outages and deliveries changed since the last save, inside the caller's transaction.
    mutating func writeNotifications() throws(SQLiteError) {
        for write in notifications.unsavedWrites {
            switch write {
            case .keepOutage(let key, let watch):
                try statement("INSERT OR REPLACE INTO notify_outages (key, watch) VALUES (?, ?)")
                    .bind(.text(key), .text(watch)).run()
            case .forgetOutage(let key):
                try statement("DELETE FROM notify_outages WHERE key = ?").bind(.text(key)).run()
            case .keepDelivery(let id, let key, let at, let delivery):
                try statement("INSERT OR REPLACE INTO notify_outbox (id, key, at, notification) VALUES (?, ?, ?, ?)")
                    .bind(.text(id), .text(key), .integer(at.millisecondsSince1970), .text(delivery)).run()
            case .forgetDelivery(let id):
                try statement("DELETE FROM notify_outbox WHERE id = ?").bind(.text(id)).run()
            }
        }
    }
}
