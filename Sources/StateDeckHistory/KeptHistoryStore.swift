import FoundationEssentials
import StateDeck
import StateDeckNotifications
import Threading

/// A history store that is a ``HistoryKeeper`` over its database: everything it does is the
/// keeper's, the same for every database; the store only opens the database.
public protocol KeptHistoryStore: HistoryStore, RecordKeepingLedger {
    var keeper: HistoryKeeper { get }
}

extension KeptHistoryStore {
    public func record(_ change: PanelChange) {
        keeper.record(change)
    }

    public func memories(of panelIds: [String]) -> [String: PanelMemory] {
        keeper.memories(of: panelIds)
    }

    public func changes(of panel: String, _ query: HistoryQuery) throws(HistoryStoreError) -> HistoryPage {
        try keeper.changes(of: panel, query)
    }

    public func uptime(of panel: String, _ query: TimelineQuery) throws(HistoryStoreError) -> UptimeReport {
        try keeper.uptime(of: panel, query)
    }

    public func follow(panels: [String]) {
        keeper.follow(panels: panels)
    }

    public func keep(_ maintenance: [MaintenanceSpan]) {
        keeper.keep(maintenance)
    }

    public var keptMaintenance: [MaintenanceSpan] { keeper.keptMaintenance }

    public func audit(_ entry: AuditEntry) {
        keeper.audit(entry)
    }

    public func auditEntries(_ query: AuditQuery) throws(HistoryStoreError) -> [AuditEntry] {
        try keeper.auditEntries(query)
    }

    public func keep(incidents: [Incident]) {
        keeper.keep(incidents: incidents)
    }

    public var keptIncidents: [Incident] { keeper.keptIncidents }

    public func keep(form: MomentForm) {
        keeper.keep(form: form)
    }

    public func keep(everyForm forms: [MomentForm], at: Date) {
        keeper.keep(everyForm: forms, at: at)
    }

    public func moment(at instant: Date) throws(MomentError) -> Moment {
        try keeper.moment(at: instant)
    }

    public func deckChanges(_ query: HistoryQuery, order: ChangeOrder) throws(HistoryStoreError) -> DeckChangePage {
        try keeper.deckChanges(query, order: order)
    }

    public var lastEventID: UInt64 { keeper.lastEventID }

    public func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64) {
        keeper.trackEventIDs(newest)
    }

    public var trouble: PanelError? { keeper.trouble }

    public func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void) {
        keeper.observeTrouble(observer)
    }

    public func close() {
        keeper.close()
    }

    @discardableResult
    public func setWriting(_ writes: Bool) -> Bool {
        keeper.setWriting(writes)
    }

    public func observeLostWriting(_ observer: @escaping @Sendable () -> Void) {
        keeper.observeLostWriting(observer)
    }

    /// Saves the queued changes and the buckets that ended by now, in one transaction.
    public func flush() {
        keeper.save()
    }

    /// ``flush()`` on a thread of its own: a save waits for the database.
    public func saved() async {
        let keeper = keeper
        _ = try? await DetachedThread.value { keeper.save() }
    }

    public func withRecords<T>(saving: Bool, _ body: (inout NotificationRecords) -> T) -> T {
        keeper.withRecords(saving: saving, body)
    }

    public func claim(_ deliveries: [PendingDelivery.ID]) -> Set<PendingDelivery.ID>? {
        keeper.claim(deliveries)
    }
}
