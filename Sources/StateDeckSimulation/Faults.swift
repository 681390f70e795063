import Locking
import StateDeckHistory

/// What the simulated machine does to the history's writes: a disk that fills, a process that
/// dies (its last save never happens). The keeper's database refuses commits while either holds.
final class Faults: Sendable {
    let diskFull = Locked(false)
    let killed = Locked(false)

    /// `database` with its commits refused while the disk is full or the process killed.
    func applied(to database: any HistoryDatabase) -> any HistoryDatabase {
        RefusingHistoryDatabase(database) { [self] in
            if killed.current {
                return HistoryDatabaseError(.unknown, title: "Process killed", notSaved: "", resumesOnce: "never",
                                            detail: "the simulated process was killed")
            }
            if diskFull.current {
                return HistoryDatabaseError(.outOfSpace, title: "Disk full", notSaved: " (the disk is full)",
                                            resumesOnce: "the disk has room", detail: "database or disk is full")
            }
            return nil
        }
    }
}
