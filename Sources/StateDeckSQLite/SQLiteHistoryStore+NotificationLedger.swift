import StateDeckNotifications

/// The store keeps the notifications' ledger in its file, beside the history: in memory from the
/// open on, so reads never wait for the disk. A write that must not wait for the batch and fails
/// (a full disk) is retried with each batch.
extension SQLiteHistoryStore: RecordKeepingLedger {
    public func withRecords<T>(saving: Bool, _ body: (inout NotificationRecords) -> T) -> T {
        state.withRecords(saving: saving, body)
    }
}
