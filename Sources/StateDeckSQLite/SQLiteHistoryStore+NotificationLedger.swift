import StateDeckNotifications

/// The store keeps the notifications' ledger in its file, beside the history: in memory from the
/// open on, so reads never wait for the disk.
///
/// Outages that change without a delivery (one more failed load) go with the writer's next batch.
/// A keep with a delivery, and a delivery's end, are written before the call returns, in a
/// transaction of their own: a failure is on disk as it is sent, and a delivery done is not sent
/// again after a stop. When that write fails (a full disk), the writer retries it with each batch.
extension SQLiteHistoryStore: NotificationLedger {
    public func outages() -> [String: OutageWatch] {
        state.withLock { $0.notifications.outages }
    }

    public func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?) {
        state.withLock { state in
            state.notifications.keep(watch, for: key, delivering: delivery)
            if delivery != nil { state.saveNotifications() }
        }
    }

    public func finished(_ delivery: PendingDelivery.ID) {
        state.withLock { state in
            state.notifications.finish(delivery)
            state.saveNotifications()
        }
    }

    public func takeUndelivered() -> [PendingDelivery] {
        state.withLock { $0.notifications.takeLeftByEarlierRun() }
    }
}
