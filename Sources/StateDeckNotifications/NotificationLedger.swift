/// What was told and what is still to deliver, kept across restarts (the history store keeps it),
/// so that a restart neither repeats a notification nor loses one.
///
/// The notifier keeps an outage with the delivery it decided in one call, sends it once the ledger
/// has kept it, and says when the delivery is done; what an earlier run left undone it delivers at
/// start.
public protocol NotificationLedger: Sendable {
    /// Every outage kept, by key (``Notifier/Subscription/key``), as the latest ``keep(_:for:delivering:replacing:)`` left it.
    func outages() -> [String: OutageWatch]
    /// Keeps `watch` under `key`, or forgets the key when nil, and with it `delivery` as still to
    /// deliver in place of `replaced` (a delivery waiting that nothing owes any more): all of it is
    /// kept before this returns when there is a delivery, as it is about to be sent.
    func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?, replacing replaced: PendingDelivery.ID?)
    /// Forgets deliveries that are done: delivered (one message may carry many), or given up by
    /// their target; all of them before this returns.
    func finished(_ deliveries: [PendingDelivery.ID])
    /// Forgets the outages and every delivery still owed, sent or not, kept under a key `keys`
    /// does not hold: their entries are gone from the deck followed, and a message the target
    /// never answered is not sent again after a restart that has the entry again.
    func forget(keysOutside keys: Set<String>)
    /// The deliveries an earlier run kept and never finished, in the order they were decided.
    /// Handed out once: the next notifier of the same run (the deck file was edited) must not send
    /// them again while the first still does.
    func takeUndelivered() -> [PendingDelivery]
    /// Whether every one of `deliveries` is kept where the next run reads it, written again now
    /// with whatever waits: a message goes out only once this holds, so that a run killed after
    /// it neither loses it nor decides and tells it again, and the write that forgets it once
    /// delivered is likely to work too. False while the writes fail (a full or read-only disk),
    /// even of deliveries written before the disk filled.
    func hasKept(_ deliveries: [PendingDelivery.ID]) -> Bool
    /// Claims `deliveries` for the message about to carry them, where the next run or another
    /// process would read them: those returned are this notifier's to send, and no other claims
    /// them again (another process, or another notifier here, whatever its memory holds) until
    /// a later process takes the ledger over from this one; one claimed already, or done, is left
    /// out. Nil while the claim cannot be written (the database cannot be reached): the notifier
    /// tries again later; empty once another process took the ledger over.
    func claim(_ deliveries: [PendingDelivery.ID]) -> Set<PendingDelivery.ID>?
}

extension NotificationLedger {

    /// ``keep(_:for:delivering:replacing:)`` replacing nothing.
    public func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?) {
        keep(watch, for: key, delivering: delivery, replacing: nil)
    }

    /// ``finished(_:)`` of one delivery.
    public func finished(_ delivery: PendingDelivery.ID) {
        finished([delivery])
    }
}
