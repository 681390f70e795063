import StateDeck
import StateDeckHistory

/// A history store a test answers reads from and that keeps nothing: what it records, the event
/// ids and trouble are nothing, written once here.
protocol ReadOnlyHistoryStore: HistoryStore {}

extension ReadOnlyHistoryStore {
    func record(_ change: PanelChange) {}
    func memories(of panelIds: [String]) -> [String: PanelMemory] { [:] }
    func audit(_ entry: AuditEntry) {}
    func auditEntries(_ query: AuditQuery) throws(HistoryStoreError) -> [AuditEntry] { [] }
    var lastEventID: UInt64 { 0 }
    func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64) {}
    var trouble: PanelError? { nil }
    func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void) {}
    func close() {}
}
