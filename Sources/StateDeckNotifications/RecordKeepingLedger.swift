/// A ledger a store keeps as ``NotificationRecords`` under its own lock: the ``NotificationLedger``
/// calls, the same for every store, in terms of the records.
///
/// A keep with a delivery, the deliveries of a message as it goes out (``hasKept(_:)``), and the
/// end of deliveries (every one a message carried at once), are written before the call returns
/// (`saving`), so that a failure is stored as it is sent and a delivery done is not sent again
/// after a stop; outages that change without a delivery go with the store's next batch. A write
/// that fails is tried again by the next batch and by ``hasKept(_:)``, which holds the message
/// back meanwhile.
public protocol RecordKeepingLedger: NotificationLedger {
    /// Runs `body` on the records under the store's lock; with `saving`, writes whatever of them
    /// waits to be written before returning, and leaves it waiting when that write fails.
    func withRecords<T>(saving: Bool, _ body: (inout NotificationRecords) -> T) -> T
}

extension RecordKeepingLedger {
    public func outages() -> [String: OutageWatch] {
        withRecords(saving: false) { $0.outages }
    }

    public func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?,
                     replacing replaced: PendingDelivery.ID?) {
        withRecords(saving: delivery != nil) { records in
            if let replaced { records.finish(replaced) }
            records.keep(watch, for: key, delivering: delivery)
        }
    }

    public func finished(_ deliveries: [PendingDelivery.ID]) {
        withRecords(saving: true) { records in
            for delivery in deliveries { records.finish(delivery) }
        }
    }

    public func forget(keysOutside keys: Set<String>) {
        withRecords(saving: true) { $0.forget(keysOutside: keys) }
    }

    public func takeUndelivered() -> [PendingDelivery] {
        withRecords(saving: false) { $0.takeLeftByEarlierRun() }
    }

    /// Writes `deliveries` again, though the database may have had them since they were decided:
    /// a disk that filled since would not take the write that forgets them once delivered, and a
    /// run killed meanwhile would send them again. One write a message, as it goes out.
    public func hasKept(_ deliveries: [PendingDelivery.ID]) -> Bool {
        withRecords(saving: true) { $0.rewrite(deliveries) }
        return withRecords(saving: false) { records in deliveries.allSatisfy(records.isWritten) }
    }
}
