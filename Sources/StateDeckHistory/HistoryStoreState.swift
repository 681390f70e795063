import FoundationEssentials
import StateDeck

/// What a history store's lock guards, as its writer works on it: the backend-neutral
/// ``HistoryState``, and how the backend commits what waits.
public protocol HistoryStoreState {
    associatedtype CommitError: Error
    /// The tallies, what each panel shows and what waits to be saved.
    var history: HistoryState { get set }
    /// Writes everything that waits, and the server's newest event id, in one transaction;
    /// with `expiringAt` (now, once an hour), also deletes what retention no longer keeps.
    mutating func commitUnsaved(eventID: UInt64?, expiringAt now: Int64?) throws(CommitError)
    /// After a commit: forgets what else the backend had waiting (the notifications' ledger).
    mutating func committed()
    /// The card that says why a commit failed and that saving resumes by itself.
    mutating func trouble(after error: CommitError) -> PanelError
}

extension HistoryStoreState {
    /// Saves everything that waits in one transaction, with retention once an hour. A failed
    /// save keeps it all for the next, and says why in ``HistoryState/trouble``.
    public mutating func save(eventID: UInt64?, now: Date) {
        let milliseconds = now.millisecondsSince1970
        let expiring = history.isRetentionDue(at: milliseconds)
        do {
            try commitUnsaved(eventID: eventID, expiringAt: expiring ? milliseconds : nil)
            history.markSaved(eventID: eventID, at: milliseconds, expired: expiring)
            committed()
        } catch {
            history.trouble = trouble(after: error)
        }
    }
}
