import StateDeckNotifications

/// The store keeps the notifications' ledger in its database, beside the history: in memory from
/// the open on, so reads never wait for the server. A write that must not wait for the batch and
/// fails (the server is unreachable) is retried with each batch.
extension PostgresHistoryStore: RecordKeepingLedger {
    public func withRecords<T>(saving: Bool, _ body: (inout NotificationRecords) -> T) -> T {
        state.withRecords(saving: saving, body)
    }

}
