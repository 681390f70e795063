import FoundationEssentials
import StateDeck

/// Where a deck's history is kept: every change of every panel, tallies of the time each was up,
/// down or loading, and what each showed, so that a restarted server continues from there.
///
/// The deck and the server speak only to this protocol; SQLite is the embedded backend.
public protocol HistoryStore: AnyObject, Sendable {
    /// Takes a change to keep and returns at once: the store's own writer saves it with others.
    func record(_ change: PanelChange)

    /// What these panels showed when the store last heard of them (panels it never heard of
    /// are left out).
    func memories(of panelIds: [String]) -> [String: PanelMemory]

    /// A page of `panel`'s stored changes, newest first.
    func changes(of panel: String, _ query: HistoryQuery) throws(HistoryStoreError) -> HistoryPage

    /// The deck followed from now on has `panels`: each other panel the store counts was removed
    /// from the deck (a reload, or a deck started without it), and is counted no more. Called
    /// before the deck starts.
    func follow(panels: [String])

    /// Keeps maintenance windows started through the API, or ended early (a deck's: the stretch
    /// ended), over those of the same id and start; returns at once.
    func keep(_ maintenance: [MaintenanceSpan])

    /// The maintenance windows kept: a deck continued from this history opens again those still
    /// holding.
    var keptMaintenance: [MaintenanceSpan] { get }

    /// Keeps incidents just opened or updated, over those of the same id; returns at once.
    func keep(incidents: [Incident])

    /// The incidents kept: a deck continued from this history takes them up.
    var keptIncidents: [Incident] { get }

    /// Returns once what waits is saved: a window an answer says was started or ended then
    /// outlives the process, for the deck continued from this history (a cluster's next leader's).
    func saved() async

    /// Keeps an action's signed entry, saved with the next batch (``saved()`` waits for it);
    /// returns at once.
    func audit(_ entry: AuditEntry)

    /// The audit entries `query` reads, newest first: those saved and those waiting to be.
    func auditEntries(_ query: AuditQuery) throws(HistoryStoreError) -> [AuditEntry]

    /// `panel`'s uptime and timeline.
    func uptime(of panel: String, _ query: TimelineQuery) throws(HistoryStoreError) -> UptimeReport

    /// The newest event id a server kept in this store issued (0 for none): a new server's ids
    /// start after it, so ids keep increasing across restarts.
    var lastEventID: UInt64 { get }

    /// Reads the server's newest event id with every save.
    func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64)

    /// Why changes are not being saved, as an error card's error; nil while saving works, unless
    /// something the history lost this run is to be told until the end of it.
    var trouble: PanelError? { get }

    /// Calls `observer` each time `trouble` changes.
    func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void)

    /// Keeps a form a part of the state document took (a panel's compact form, the deck's notice,
    /// maintenance or incidents), unless the same as its part's newest; returns at once.
    func keep(form: MomentForm)

    /// Keeps `forms`, the whole document of a deck followed anew, taken `at`: the panels kept
    /// before that are not among them are gone from then on.
    func keep(everyForm forms: [MomentForm], at: Date)

    /// The state document's parts at `instant`, rebuilt from the forms kept.
    func moment(at instant: Date) throws(MomentError) -> Moment

    /// A page of every panel's changes of phase, health or summary, in `order`.
    func deckChanges(_ query: HistoryQuery, order: ChangeOrder) throws(HistoryStoreError) -> DeckChangePage

    /// Saves what waits and stops saving; returns within a second or so.
    func close()

    /// Whether this process writes the history: only the one running the deck does, where
    /// several share a store (a cluster). Starting to write takes the history over (every process
    /// that wrote it before commits nothing more) and reads it anew, since another process wrote
    /// it meanwhile; stopping saves what waits first. Returns whether this process now writes as
    /// asked: false when the history could not be read, and then nothing is written.
    @discardableResult
    func setWriting(_ writes: Bool) -> Bool

    /// Calls `observer` when another process took the history over while this one wrote it: this
    /// one's commits were refused from then on, and it writes no more.
    func observeLostWriting(_ observer: @escaping @Sendable () -> Void)
}

extension HistoryStore {
    /// A store only this process uses: it writes from its open on.
    @discardableResult
    public func setWriting(_ writes: Bool) -> Bool { true }

    /// A store only this process uses: nobody takes it over.
    public func observeLostWriting(_ observer: @escaping @Sendable () -> Void) {}

    /// A store that counts no time.
    public func follow(panels: [String]) {}

    /// A store that keeps no maintenance windows: a restart forgets those started by hand.
    public func keep(_ maintenance: [MaintenanceSpan]) {}

    public var keptMaintenance: [MaintenanceSpan] { [] }

    /// A store that keeps no incidents: a restart forgets them.
    public func keep(incidents: [Incident]) {}

    public var keptIncidents: [Incident] { [] }

    public func saved() async {}

    /// A store that keeps no moments: `GET /api/state?at=` says history is off.
    public func keep(form: MomentForm) {}

    public func keep(everyForm forms: [MomentForm], at: Date) {}

    public func moment(at instant: Date) throws(MomentError) -> Moment { throw .notKept }

    public func deckChanges(_ query: HistoryQuery, order: ChangeOrder) throws(HistoryStoreError) -> DeckChangePage {
        DeckChangePage(changes: [], next: nil, oldest: nil)
    }
}

/// A history query that could not be answered.
public enum HistoryStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store could not be read.
    case unreadable(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "the history store cannot be read: \(reason)"
        }
    }
}
