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
    /// history (or, not writing it, reads it anew); without `following`, only what answering reads
    /// needs (not the notifications' ledger).
    func load(following: Bool) throws(HistoryDatabaseError) -> StoredHistory

    /// Makes ready to commit (a connection lost is made anew once its wait is over), before the
    /// keeper takes the ledger's lock. With `placing` (changes or forms wait to be saved), gives
    /// the newest positions saved where other processes may write the same history (before a
    /// takeover, or two leaders at a failover's edge); nil where only this one does, or without.
    func readyToCommit(placing: Bool) throws(HistoryDatabaseError) -> StoredPositions?

    /// Takes the history over: from now on every process that took it before commits nothing
    /// (its commits throw ``HistoryDatabaseError/fenced(_:)``), and this one commits until
    /// another takes it over in turn. Called before the keeper reads what it starts from.
    func takeWriting() throws(HistoryDatabaseError)

    /// Commits `batch` in one transaction, or nothing of it.
    func commit(_ batch: HistoryBatch) throws(HistoryDatabaseError) -> CommitOutcome

    /// Commits the ledger's `writes` in a transaction of their own.
    func commit(_ writes: [NotificationRecords.Write]) throws(HistoryDatabaseError)

    /// Claims the deliveries of these ids (as the ledger's writes name them) for this process's
    /// takeover of the history, and returns those it claimed: kept, and not claimed by it
    /// already.
    func claim(deliveries ids: [String]) throws(HistoryDatabaseError) -> Set<String>

    /// `panel`'s saved changes in `range`, newest first.
    func changes(of panel: String, in range: ChangeRange) throws(HistoryDatabaseError) -> [PositionedEntry]

    /// `panel`'s saved tallies of `resolution` starting at or after `from`, oldest first.
    func tallies(of panel: String, _ resolution: Resolution, from: Int64) throws(HistoryDatabaseError) -> [TallyRow]

    /// `panel`'s newest saved changes, newest first, at most `limit`.
    func newestEntries(of panel: String, limit: Int) throws(HistoryDatabaseError) -> [ViewStateHistory.Entry]

    /// The saved audit entries `query` reads, newest first (by time, then id).
    func auditEntries(_ query: AuditQuery) throws(HistoryDatabaseError) -> [AuditEntry]

    /// The newest saved form of each part of the state document at or before `at` (milliseconds
    /// since 1970; `.max` for the newest of all).
    func forms(at: Int64) throws(HistoryDatabaseError) -> [MomentForm]

    /// When the oldest saved form holds from (milliseconds since 1970), nil for none: retention
    /// folds each part's forms before its cutoff into one at the cutoff.
    func oldestForm() throws(HistoryDatabaseError) -> Int64?

    /// The saved panel forms that are changes (``MomentForm/isChange``) in `range`, oldest first.
    func formChanges(in range: FormChangeRange) throws(HistoryDatabaseError) -> [MomentForm]

    /// `panel`'s newest saved form at or before `at` (milliseconds since 1970; the later by time,
    /// of two at one time the one kept last): with `health` nil, any (its form at `at`, gone ones
    /// too); else one that changed its health to `health` (``MomentForm/changesHealth``): since
    /// when it had it.
    func panelForm(of panel: String, atOrBefore at: Int64, changingHealthTo health: String?) throws(HistoryDatabaseError)
        -> MomentForm?

    /// Nothing is committed after this: the last save is done.
    func close()
}

/// The newest positions a shared store holds: rows waiting to be saved are placed after them.
public struct StoredPositions: Sendable, Equatable {
    public var change: Int64
    public var form: Int64

    public init(change: Int64, form: Int64) {
        self.change = change
        self.form = form
    }
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

/// The saved changes a page of `GET /api/changes` needs: at `from...to`, past `cursor` (by time,
/// then position) in `order`, at most `limit`.
public struct FormChangeRange: Sendable {
    public var from: Int64
    public var to: Int64
    public var cursor: HistoryCursor
    public var limit: Int
    public var order: ChangeOrder

    /// Whether a change at `at` and `position` comes after the cursor, in the range's order.
    public func isPastCursor(at: Int64, position: Int64) -> Bool {
        switch order {
        case .oldestFirst: (at, position) > (cursor.at, cursor.position)
        case .newestFirst: (at, position) < (cursor.at, cursor.position)
        }
    }
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
    /// The newest position a form was saved at (0 for none).
    public var lastFormPosition: Int64
    /// The newest form of each part by time, and the one kept last where that is another: a form
    /// the same as its part's newest, and not before it, is not kept again.
    public var forms: [MomentForm]
    /// The furthest `now` retention deleted by (``HistoryExpiry/now``), of every run that kept this
    /// history; nil before retention first ran. A run opened after the wall clock was set back
    /// starts behind it, and what was deleted stays deleted.
    public var furthestRetentionNow: Int64?

    public init(eventID: UInt64, watches: [HistoryWatch], lastPosition: Int64, latest: [LatestRow],
                notifications: NotificationRecords, maintenance: [MaintenanceSpan] = [], incidents: [Incident] = [],
                lastFormPosition: Int64 = 0, forms: [MomentForm] = [], furthestRetentionNow: Int64? = nil) {
        self.eventID = eventID
        self.watches = watches
        self.lastPosition = lastPosition
        self.latest = latest
        self.notifications = notifications
        self.maintenance = maintenance
        self.incidents = incidents
        self.lastFormPosition = lastFormPosition
        self.forms = forms
        self.furthestRetentionNow = furthestRetentionNow
    }
}

/// One panel's `latest` row: what it shows, its health and since when, whether a debug command
/// holds it (its time then counts nowhere) or a maintenance window covers it (its time then counts
/// as maintenance), when a heartbeat's newest run ended, and its flapping count (``FlapRecord``).
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
    /// The changes of health the flapping rule counts, oldest first, in milliseconds since 1970.
    public var flapChanges: [Int64]
    /// When flapping began, in milliseconds since 1970; nil while the panel does not flap.
    public var flappingSince: Int64?

    public init(panel: String, shown: ShownState.StoredColumns, health: Health, since: Int64, forced: Bool,
                lastRun: Int64? = nil, underMaintenance: Bool = false, flapChanges: [Int64] = [],
                flappingSince: Int64? = nil) {
        self.panel = panel
        self.shown = shown
        self.health = health
        self.since = since
        self.forced = forced
        self.lastRun = lastRun
        self.underMaintenance = underMaintenance
        self.flapChanges = flapChanges
        self.flappingSince = flappingSince
    }

    /// `flapChanges` as the column keeps them: "1700000000000,1700000060000", nil for none.
    public var flapChangesColumn: String? {
        flapChanges.isEmpty ? nil : flapChanges.map(String.init).joined(separator: ",")
    }

    /// The changes a `flap_changes` column keeps (a part that is not a number is skipped).
    public static func flapChanges(column: String?) -> [Int64] {
        (column ?? "").split(separator: ",").compactMap { Int64($0) }
    }
}

/// Everything one save writes, in one transaction.
public struct HistoryBatch: Sendable {
    public var changes: [(panel: String, entry: HistoryEntry, position: Int64)]
    /// Written over a saved row of the same panel, resolution, start and watch.
    public var tallies: [TallyRow]
    /// Written over the panel's saved row.
    public var latest: [LatestRow]
    /// Panels removed from the deck: their `latest` rows are deleted, before `latest` is written
    /// (a panel removed and added again within one batch keeps the row it has anew).
    public var removedPanels: [String] = []
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
    /// Forms of the state document's parts, each kept at its position.
    public var forms: [MomentForm] = []
    /// The server's newest event id, when it changed.
    public var eventID: UInt64?
    /// What retention no longer keeps, once an hour.
    public var expiry: HistoryExpiry?
}

/// What a save deletes: changes, tallies, watches, maintenance windows and audit entries older
/// than `retention` keeps at `now` (the windows and entries as long as the days' tallies), except
/// the watch counting; incidents resolved more than ``Incident/keptFor`` before `now`. Forms are
/// kept as long as changes, each part's newest before the cutoff moved to the cutoff (a
/// checkpoint: the moment there is still whole), and listed as a change no more.
public struct HistoryExpiry: Sendable {
    /// Retention's clock, which a jump of the wall clock does not move, or the wall clock where
    /// it is behind that (``HistoryState``).
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
    /// Another process took the history over: this one is to write no more.
    public var isFenced = false

    public init(_ kind: ErrorKind, title: String, notSaved: String, resumesOnce: String, detail: String?) {
        self.kind = kind
        self.title = title
        self.notSaved = notSaved
        self.resumesOnce = resumesOnce
        self.detail = detail
    }

    /// A commit refused because another process took the history `place` names over since this
    /// one did: the other writes it now.
    public static func fenced(_ place: String) -> HistoryDatabaseError {
        var error = HistoryDatabaseError(.unknown, title: "Another process writes this history",
                                         notSaved: " by this process: another one took \(place) over",
                                         resumesOnce: "this process takes it over again", detail: nil)
        error.isFenced = true
        return error
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
