import Locking
import StateDeck
import StateDeckHistory

/// A database whose commits fail while `failing` is set, as a full or read-only disk refuses them,
/// counting those refused; everything else is `inner`'s.
final class FailingHistoryDatabase {
    let failing = Locked(false)
    /// The commits refused so far.
    let refused = Locked(0)
    let database: any HistoryDatabase

    init(_ inner: any HistoryDatabase) {
        let (failing, refused) = (failing, refused)
        database = RefusingHistoryDatabase(inner) {
            guard failing.current else { return nil }
            refused.withLock { $0 += 1 }
            return HistoryDatabaseError(.outOfSpace, title: "Out of space", notSaved: ": there is no room for it",
                                        resumesOnce: "there is space", detail: "database or disk is full")
        }
    }
}
