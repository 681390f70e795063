import FoundationEssentials
import StateDeck
import StateDeckNotifications

/// A database a ``HistoryKeeper`` keeps a history in: it commits the batches it is handed and
/// reads rows back, nothing else. The queue, the tallies, the notifications' ledger and what a
/// failure means are the keeper's, the same for every database.
///
/// Commits and reads use connections of their own, so that a read never waits for a commit.
public protocol HistoryDatabase: AnyObject, Sendable {
    /// What the keeper holds in memory, read at open and again when it starts writing a shared
    /// history; without `following`, only what answering reads needs (no panel's health).
    func load(following: Bool) throws(HistoryDatabaseError) -> StoredHistory

    /// Makes ready to commit (a connection lost is made anew once its wait is over), before the
    /// keeper takes the ledger's lock. With `placingChanges` (changes wait to be saved), gives the
    /// newest position saved where other processes may write the same history (before a takeover
    /// in a cluster); nil where only this one does, or without.
    func readyToCommit(placingChanges: Bool) throws(HistoryDatabaseError) -> Int64?

    /// Commits `batch` in one transaction, or nothing of it.
    func commit(_ batch: HistoryBatch) throws(HistoryDatabaseError) -> CommitOutcome

    /// Commits the ledger's `writes` in a transaction of their own.
    func commit(_ writes: [NotificationRecords.Write]) throws(HistoryDatabaseError)

    /// `panel`'s saved changes in `range`, newest first.
    func changes(of panel: String, in range: ChangeRange) throws(HistoryDatabaseError) -> [PositionedEntry]

    /// `panel`'s saved tallies of `resolution` starting at or after `from`, oldest first.
    func tallies(of panel: String, _ resolution: Resolution, from: Int64) throws(HistoryDatabaseError) -> [TallyRow]

    /// `panel`'s newest saved changes, newest first, at most `limit`.
    func newestEntries(of panel: String, limit: Int) throws(HistoryDatabaseError) -> [ViewStateHistory.Entry]

    /// The saved audit entries `query` reads, newest first (by time, then id).
    func auditEntries(_ query: AuditQuery) throws(HistoryDatabaseError) -> [AuditEntry]

    /// Nothing is committed after this: the last save is done.
    func close()
}

/// A stored change and the position it was saved at.
public typealias PositionedEntry = (entry: HistoryEntry, position: Int64)

/// The saved changes a page needs: of one panel, at `from...to`, before `cursor` (by time, then
/// position), newest first, at most `limit`.
public struct ChangeRange: Sendable {
    public var from: Int64
    public var to: Int64
    public var cursor: HistoryCursor
    public var limit: Int
}

/// What a database holds that the keeper reads into memory.
public struct StoredHistory: Sendable {
    /// The newest event id a server kept here issued (0 for none).
    public var eventID: UInt64
    public var watches: [HistoryWatch]
    /// The newest position a change was saved at (0 for none).
    public var lastPosition: Int64
    /// What each panel showed, its health and since when; empty when not following.
    public var latest: [LatestRow]
    public var notifications: NotificationRecords
    /// The maintenance windows started through the API and the stretches ended early.
    public var maintenance: [MaintenanceSpan]
    /// The incidents open and resolved within ``Incident/keptFor``.
    public var incidents: [Incident]

    public init(eventID: UInt64, watches: [HistoryWatch], lastPosition: Int64, latest: [LatestRow],
                notifications: NotificationRecords, maintenance: [MaintenanceSpan] = [], incidents: [Incident] = []) {
        self.eventID = eventID
        self.watches = watches
        self.lastPosition = lastPosition
        self.latest = latest
        self.notifications = notifications
        self.maintenance = maintenance
        self.incidents = incidents
    }
}

/// One panel's `latest` row: what it shows, its health and since when, whether a debug command
/// holds it (its time then counts nowhere) or a maintenance window covers it (its time then counts
/// as maintenance), and when a heartbeat's newest run ended.
public struct LatestRow: Sendable {
    public var panel: String
    public var shown: ShownState.StoredColumns
    public var health: Health
    /// Milliseconds since 1970.
    public var since: Int64
    public var forced: Bool
    /// Milliseconds since 1970; nil for a panel no job pings.
    public var lastRun: Int64?
    public var underMaintenance: Bool

    public init(panel: String, shown: ShownState.StoredColumns, health: Health, since: Int64, forced: Bool,
                lastRun: Int64? = nil, underMaintenance: Bool = false) {
        self.panel = panel
        self.shown = shown
        self.health = health
        self.since = since
        self.forced = forced
        self.lastRun = lastRun
        self.underMaintenance = underMaintenance
    }
}

/// Everything one save writes, in one transaction.
public struct HistoryBatch: Sendable {
    public var changes: [(panel: String, entry: HistoryEntry, position: Int64)]
    /// Written over a saved row of the same panel, resolution, start and watch.
    public var tallies: [TallyRow]
    /// Written over the panel's saved row.
    public var latest: [LatestRow]
    /// Written over the saved watch of the same id.
    public var watches: [HistoryWatch]
    public var notifications: [NotificationRecords.Write]
    /// Maintenance windows started through the API or ended early, written over the saved row of
    /// the same id and start.
    public var maintenance: [MaintenanceSpan] = []
    /// Audit entries, each kept once by its id.
    public var audit: [AuditEntry] = []
    /// Incidents opened or updated, written over the saved row of the same id.
    public var incidents: [Incident] = []
    /// The server's newest event id, when it changed.
    public var eventID: UInt64?
    /// What retention no longer keeps, once an hour.
    public var expiry: HistoryExpiry?
}

/// What a save deletes: changes, tallies, watches, maintenance windows and audit entries older
/// than `retention` keeps at `now` (the windows and entries as long as the days' tallies), except
/// the watch counting; incidents resolved more than ``Incident/keptFor`` before `now`.
public struct HistoryExpiry: Sendable {
    public var now: Int64
    public var retention: HistoryRetention
    public var counting: Int64
}

/// How a commit ended.
public enum CommitOutcome: Sendable {
    case committed
    /// Nothing was committed: the database had lost everything saved before (its file was
    /// deleted) and starts anew. Everything in memory is to be saved again, and `notice` told for
    /// the rest of the run.
    case startedAnew(notice: PanelError)
}

/// Why a database could not commit or read: what a trouble card says of it.
public struct HistoryDatabaseError: Error, Sendable, CustomStringConvertible {
    public var kind: ErrorKind
    public var title: String
    /// Where the history is not being saved, as the card's sentence goes on ("History is not
    /// being saved`place`."): " to /var/lib/statedeck".
    public var notSaved: String
    /// What makes saving resume: "there is space".
    public var resumesOnce: String
    public var detail: String?

    public init(_ kind: ErrorKind, title: String, notSaved: String, resumesOnce: String, detail: String?) {
        self.kind = kind
        self.title = title
        self.notSaved = notSaved
        self.resumesOnce = resumesOnce
        self.detail = detail
    }

    /// A read that failed, for `reason`.
    public static func unreadable(_ reason: String, from place: String) -> HistoryDatabaseError {
        HistoryDatabaseError(.unknown, title: "Can't read history", notSaved: " while \(place) cannot be read",
                             resumesOnce: "it can be read", detail: reason)
    }

    public var description: String {
        title + (detail.map { ": \($0)" } ?? "")
    }
}
