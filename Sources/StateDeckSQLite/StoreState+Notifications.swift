import FoundationEssentials
import SQLite
import StateDeckNotifications

extension StoreState {
    /// Reads the outages and the deliveries not done; a row that does not decode (written by hand)
    /// is skipped.
    mutating func readNotifications() throws(SQLiteError) {
        let decoder = JSONDecoder()
        let outages = try statement("SELECT key, watch FROM notify_outages")
        try outages.bind()
        defer { outages.reset() }
        while try outages.step() {
            guard let key = outages.text(0), let json = outages.text(1),
                  let watch = try? decoder.decode(OutageWatch.self, from: Data(json.utf8)) else { continue }
            notifications.outages[key] = watch
        }
        let outbox = try statement("SELECT notification FROM notify_outbox")
        try outbox.bind()
        defer { outbox.reset() }
        while try outbox.step() {
            guard let json = outbox.text(0),
                  let delivery = try? decoder.decode(PendingDelivery.self, from: Data(json.utf8)) else { continue }
            notifications.pending[delivery.id] = delivery
            notifications.leftByEarlierRun.insert(delivery.id)
        }
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
        let encoder = JSONEncoder()
        // Encoding these types does not fail; if it did, the NOT NULL column would refuse the row.
        func json(_ value: some Encodable) -> Statement.Value {
            (try? encoder.encode(value)).map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null
        }
        for key in notifications.unsavedOutages {
            if let watch = notifications.outages[key] {
                try statement("INSERT OR REPLACE INTO notify_outages (key, watch) VALUES (?, ?)")
                    .bind(.text(key), json(watch)).run()
            } else {
                try statement("DELETE FROM notify_outages WHERE key = ?").bind(.text(key)).run()
            }
        }
        for id in notifications.unsavedDeliveries {
            if let delivery = notifications.pending[id] {
                try statement("INSERT OR REPLACE INTO notify_outbox (id, key, at, notification) VALUES (?, ?, ?, ?)")
                    .bind(.text(id.uuidString), .text(delivery.key),
                          .integer(delivery.notification.at.millisecondsSince1970), json(delivery)).run()
            } else {
                try statement("DELETE FROM notify_outbox WHERE id = ?").bind(.text(id.uuidString)).run()
            }
        }
    }
}
