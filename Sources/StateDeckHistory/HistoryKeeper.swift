import FoundationEssentials
import Locking
import StateDeck
import StateDeckNotifications

/// Keeps a deck's history in a ``HistoryDatabase``, the same way whatever the database: the queue
/// of changes, the tallies of time as it passes, the notifications' ledger, and what a failure
/// means. Both history stores are one of these over their database.
///
/// `record(_:)` only queues a change; the writer's thread saves the queue with everything else
/// that waits in one transaction every `flushInterval` or as soon as `batchSize` changes wait, so
/// neither a request nor the deck's event path waits for the database, and a `kill -9` loses at
/// most the last interval. A failed save keeps it all for the next (up to `unsavedLimit`, the
/// oldest dropped first), and `trouble` says why until one succeeds.
///
/// A query never waits for a save: it takes a view of its panel from memory (held for as long as
/// that takes, never while the database works) and reads the saved rows on the database's own read
/// connection. A change it reads twice, in memory and saved meanwhile, it counts once.
public final class HistoryKeeper: Sendable {
    /// How the keeper saves and what it keeps, whatever the database.
    public struct Configuration: Sendable {
        public var retention = HistoryRetention()
        /// The longest a change waits to be saved.
        public var flushInterval: Duration = .seconds(1)
        /// Changes that make the writer save at once. Each save also counts every panel's time, so
        /// saves come by the interval rather than by the batch up to thousands of changes a second
        /// (10,000 pings a second of a 100,000-panel deck: at 1,000, counting took a tenth of the
        /// CPU the pings cost).
        public var batchSize = 10_000
        /// The most changes and tallies kept in memory while saving fails; the oldest go first.
        public var unsavedLimit = 100_000
        /// The clocks buckets end and uptimes are counted by.
        public var clock = HistoryClock.system
        /// The wall clock alone, trusted to go forward only as time passes (a test's virtual clock).
        public var now: @Sendable () -> Date {
            get { clock.wall }
            set { clock = HistoryClock(wall: newValue) }
        }
        /// Whether the writer's own thread saves; off, only `save()` does (tests on a virtual clock).
        public var startsWriter = true
        /// The longest `close()` waits for the last save; nil waits for it (a local file answers).
        public var closeLimit: Duration?
        /// Whether the keeper waits for `setWriting(true)` before it counts time or writes
        /// anything: a member of a cluster, where only the process running the deck writes the
        /// history and the others answer from what it saved.
        public var waitsToWrite = false
        /// Stands between the keeper and its database: the simulator's faults (commits refused as
        /// a full disk refuses them, a process ended without its last save). As given by default.
        public var database: @Sendable (any HistoryDatabase) -> any HistoryDatabase = { $0 }

        public init() {}
    }

    public let configuration: Configuration
    /// The newest event id a server kept in this history issued, when it was opened (0 for none).
    public let lastEventID: UInt64
    private let database: any HistoryDatabase
    private let writer: HistoryWriter
    /// What queries read: held to take a view or to take in and mark a batch, never while the
    /// database works.
    private let memory: Locked<HistoryState>
    /// The ledger; held across a commit of it, so that a write to it is never marked saved unseen.
    private let records: Locked<NotificationRecords>
    /// Set once the keeper is closed, under `records`' lock: the ledger writes nothing more, since
    /// the folder is let go and another process may write it (a delivery that ends after the stop
    /// is the next run's to send again).
    private let ledgerClosed = Locked(false)
    /// Whether this process writes; held for a whole save, so saves and reloads come one at a time.
    private let writing: Locked<Bool>
    /// Whether this process took the history over since it started writing; taken with the
    /// next save when the first try failed (a full disk at open): commits wait for it.
    private let tookOver: Locked<Bool>
    /// When this process, not writing, last read the history anew (wall milliseconds since 1970);
    /// nil while it writes, so the first read after it stops reads anew.
    private let readAnewAt = Locked<Int64?>(nil)
    private let troubleObservers = Locked<[@Sendable (PanelError?) -> Void]>([])
    private let lostWritingObservers = Locked<[@Sendable () -> Void]>([])
    private let eventIDs = Locked<(@Sendable () -> UInt64)?>(nil)
    private let reportedTrouble = Locked<PanelError?>(nil)

    /// Reads what `database` holds and starts saving to it (unless it waits to write).
    public init(database given: any HistoryDatabase, configuration: Configuration) throws(HistoryDatabaseError) {
        let database = configuration.database(given)
        self.database = database
        self.configuration = configuration
        let following = !configuration.waitsToWrite
        // Refused now (a full disk), the takeover is tried again with each save.
        tookOver = Locked(following && (try? database.takeWriting()) != nil)
        let (history, stored) = try Self.load(database, following: following, configuration: configuration)
        lastEventID = history.storedEventID
        memory = Locked(history)
        records = Locked(following ? stored.notifications : NotificationRecords())
        writing = Locked(following)
        writer = HistoryWriter(flushInterval: configuration.flushInterval, batchSize: configuration.batchSize)
        writer.start(threaded: configuration.startsWriter) { [self] in save() }
    }

    /// The history `database` holds, opened now: with `following`, every panel continued and the
    /// watches a stop or a crash ended finished.
    private static func load(_ database: any HistoryDatabase, following: Bool,
                             configuration: Configuration) throws(HistoryDatabaseError) -> (HistoryState, StoredHistory) {
        let stored = try database.load(following: following)
        guard following else {
            return (HistoryState(retention: configuration.retention, reading: stored, at: configuration.clock.read()), stored)
        }
        var history = HistoryState(retention: configuration.retention, stored: stored, opening: configuration.clock.read())
        try history.finishEndedWatches(latest: stored.latest) { panel, watch, resolution, start throws(HistoryDatabaseError) in
            try savedTally(database, panel, watch, resolution, start)
        }
        return (history, stored)
    }

    /// `panel`'s tally of the bucket of `resolution` at `start` that `watch` saved, if any.
    private static func savedTally(_ database: any HistoryDatabase, _ panel: String, _ watch: Int64, _ resolution: Resolution,
                                   _ start: Int64) throws(HistoryDatabaseError) -> TallyRow? {
        try database.tallies(of: panel, resolution, from: start).first { $0.start == start && $0.watch == watch }
    }

    private func savedTally(_ panel: String, _ watch: Int64, _ resolution: Resolution, _ start: Int64) throws(HistoryDatabaseError) -> TallyRow? {
        try Self.savedTally(database, panel, watch, resolution, start)
    }

    // MARK: Writing

    /// Takes a change to keep and returns at once.
    public func record(_ change: PanelChange) {
        writer.record(change)
    }

    /// Follows a deck of `panels` from now on: each other panel the history counts was removed
    /// (``HistoryState/remove(panelsOtherThan:)``), after the changes queued, its last ones among
    /// them, are taken in. Call it before the deck starts. Nothing is counted while not writing.
    public func follow(panels: [String]) {
        writing.withLock { writing in
            guard writing else { return }
            let reading = configuration.clock.read()
            memory.withLock { state in
                state.absorb(writer.takeQueued(), at: reading, unsavedLimit: configuration.unsavedLimit)
                state.remove(panelsOtherThan: Set(panels))
            }
        }
    }

    /// Keeps maintenance windows started through the API or ended early, saved with the next batch.
    public func keep(_ maintenance: [MaintenanceSpan]) {
        memory.withLock { $0.keep(maintenance) }
    }

    /// The maintenance windows started through the API and the stretches ended early, as kept.
    public var keptMaintenance: [MaintenanceSpan] {
        memory.withLock { $0.maintenance }
    }

    /// Keeps an action's signed entry, saved with the next batch.
    public func audit(_ entry: AuditEntry) {
        memory.withLock { $0.audit(entry, unsavedLimit: configuration.unsavedLimit) }
    }

    /// Keeps incidents just opened or updated, saved with the next batch.
    public func keep(incidents: [Incident]) {
        memory.withLock { $0.keep(incidents: incidents) }
    }

    /// The incidents kept, newest opened first.
    public var keptIncidents: [Incident] {
        memory.withLock { $0.incidents }
    }

    /// Reads the server's newest event id with every save.
    public func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64) {
        eventIDs.withLock { $0 = newest }
    }

    /// Saves what waits now, with time counted to now: the writer's thread does it every interval.
    public func save() {
        let lost = writing.withLock { writing -> Bool in
            guard writing else { return false }
            let reading = configuration.clock.read()
            let eventID = eventIDs.current?()
            let placing = memory.withLock { state in
                // The queue is taken under the memory's lock, so a view sees each change once.
                state.absorb(writer.takeQueued(), at: reading, unsavedLimit: configuration.unsavedLimit)
                return state.hasRowsToPlace
            }
            do throws(HistoryDatabaseError) {
                try takeOverIfNotYet()
                if let newest = try database.readyToCommit(placing: placing) {
                    memory.withLock { $0.placeWaiting(after: newest) }
                }
                try commitWaiting(eventID: eventID)
            } catch {
                memory.withLock { $0.failed(error) }
                writing = !error.isFenced
                if !writing { stopCounting() }
            }
            return !writing
        }
        reportTrouble()
        if lost { tellLostWriting() }
    }

    /// Takes the history over where the takeover at open was refused: no commit before it.
    private func takeOverIfNotYet() throws(HistoryDatabaseError) {
        guard !tookOver.current else { return }
        try database.takeWriting()
        tookOver.withLock { $0 = true }
    }

    /// Commits everything that waits and marks it saved; saves it all again into a database that
    /// started anew.
    private func commitWaiting(eventID: UInt64?) throws(HistoryDatabaseError) {
        try records.withLock { records throws(HistoryDatabaseError) in
            func waiting() -> HistoryBatch {
                var batch = memory.withLock { $0.batch(eventID: eventID) }
                batch.notifications = records.unsavedWrites
                return batch
            }
            var batch = waiting()
            if case .startedAnew(let notice) = try database.commit(batch) {
                records.markAllUnsaved()
                memory.withLock { state in
                    state.markLatestUnsaved()
                    state.standingNotice = notice
                }
                batch = waiting()
                guard case .committed = try database.commit(batch) else { return }
            }
            records.markSaved()
            memory.withLock { $0.markSaved(batch) }
        }
    }

    /// Tells the observers when the trouble changed.
    private func reportTrouble() {
        let trouble = memory.withLock { $0.trouble }
        let changed = reportedTrouble.withLock { reported in
            defer { reported = trouble }
            return reported != trouble
        }
        guard changed else { return }
        for observer in troubleObservers.current { observer(trouble) }
    }

    /// Starts writing: takes the history over (a process that wrote it before commits nothing
    /// more) and reads it anew (what that process left: health, open tallies, watches, the
    /// ledger); or saves what waits and stops. A takeover or a read that fails is tried once more
    /// on a new session (the one kept may have gone stale while another process wrote), then
    /// leaves the keeper not writing, with the trouble said, and returns false.
    @discardableResult
    public func setWriting(_ writes: Bool) -> Bool {
        guard writes else {
            save()
            writing.withLock { writing in
                writing = false
                tookOver.withLock { $0 = false }
                stopCounting()
            }
            return true
        }
        let writes = writing.withLock { writing -> Bool in
            for attempt in 1...2 {
                do throws(HistoryDatabaseError) {
                    try database.takeWriting()
                    tookOver.withLock { $0 = true }
                    let (history, stored) = try Self.load(database, following: true, configuration: configuration)
                    memory.withLock { $0 = history }
                    records.withLock { $0 = stored.notifications }
                    writing = true
                    break
                } catch where attempt == 2 {
                    memory.withLock { $0.failed(error) }
                } catch {}
            }
            return writing
        }
        reportTrouble()
        return writes
    }

    /// A process that does not write answers what the writing one saved: before a read it reads
    /// the history anew, at most once a second, so every process of a cluster gives the same
    /// figures (the writer's as of its last save), and one that wrote before counts nothing of
    /// its own any more. A read that fails is said, and tried again by the next: what memory holds
    /// then is not the store's, and answering it would give other figures than the other processes.
    private func readAnewUnlessWriting() throws(HistoryDatabaseError) {
        let now = configuration.clock.wall().millisecondsSince1970
        try writing.withLock { writing throws(HistoryDatabaseError) in
            guard !writing, readAnewAt.withLock({ at in
                guard at.map({ abs(now - $0) >= 1_000 }) ?? true else { return false }
                at = now
                return true
            }) else { return }
            do throws(HistoryDatabaseError) {
                let (history, _) = try Self.load(database, following: false, configuration: configuration)
                memory.withLock { $0 = history }
            } catch {
                readAnewAt.withLock { $0 = nil }
                throw error
            }
        }
    }

    /// No longer writing: what memory counted is held as another's history until the next read
    /// reads the history anew (at once), and the changes queued, which this process will never
    /// save, are dropped (a deck that lost the history records some until it stops).
    private func stopCounting() {
        memory.withLock { $0.stopCounting() }
        _ = writer.takeQueued()
        readAnewAt.withLock { $0 = nil }
    }

    /// Calls `observer` when another process took the history over while this one wrote it.
    public func observeLostWriting(_ observer: @escaping @Sendable () -> Void) {
        lostWritingObservers.withLock { $0.append(observer) }
    }

    private func tellLostWriting() {
        for observer in lostWritingObservers.current { observer() }
    }

    /// Saves what waits and stops the writer, waiting at most `closeLimit`. Later changes are dropped.
    public func close() {
        guard writer.close(waitingAtMost: configuration.closeLimit) else { return }
        records.withLock { _ in ledgerClosed.withLock { $0 = true } }
        database.close()
    }

    // MARK: Trouble

    /// Why changes are not being saved, as an error card's error; nil while saving works, unless
    /// something the history lost this run is to be told until the end of it.
    public var trouble: PanelError? { reportedTrouble.current }

    public func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void) {
        troubleObservers.withLock { $0.append(observer) }
    }

    // MARK: Reading

    /// `panel` as memory holds it, with the changes queued and time counted to `reading`.
    private func view(of panel: String, at reading: HistoryClock.Reading) -> HistoryState {
        memory.withLock { $0.view(of: panel, adding: writer.queued, at: reading) }
    }

    public func memories(of panelIds: [String]) -> [String: PanelMemory] {
        let known = memory.withLock { state in panelIds.filter(state.knows) }
        var entries: [String: [ViewStateHistory.Entry]] = [:]
        for panel in known {
            // A panel whose changes cannot be read starts without them; its card says what it shows.
            entries[panel] = try? database.newestEntries(of: panel, limit: ViewStateHistory.displayLimit)
        }
        return memory.withLock { state in
            entries.reduce(into: [:]) { memories, read in
                memories[read.key] = state.memory(of: read.key, newestFirst: read.value)
            }
        }
    }

    public func changes(of panel: String, _ query: HistoryQuery) throws(HistoryStoreError) -> HistoryPage {
        do {
            return try view(of: panel, at: configuration.clock.read()).changes(of: panel, query) { range throws(HistoryDatabaseError) in
                try database.changes(of: panel, in: range)
            }
        } catch {
            throw .unreadable(error.description)
        }
    }

    /// `panel`'s uptime and timeline; with a `to` in the past, its health is the one it had then.
    public func uptime(of panel: String, _ query: TimelineQuery) throws(HistoryStoreError) -> UptimeReport {
        do {
            try readAnewUnlessWriting()
            let reading = configuration.clock.read()
            var view = view(of: panel, at: reading)
            if !writing.current { try view.countSaved(stored: savedTally) }
            var report = try view.uptime(of: panel, query, now: reading.wall) { resolution, from throws(HistoryDatabaseError) in
                try database.tallies(of: panel, resolution, from: from)
            }
            if let to = query.to, to < reading.wall { report.current = try health(of: panel, at: to) }
            return report
        } catch {
            throw .unreadable(error.description)
        }
    }

    /// `panel`'s health at the past instant `instant`, since when, and since when it was watched
    /// without a break then; nil before its first result and while it was out of the deck. Read
    /// from its forms, saved or waiting to be: the health of the one a moment at `instant` shows,
    /// since the newest at or before it that changed the health to that (after the wall clock was
    /// set back, a later change to another health may hold from an earlier time).
    private func health(of panel: String, at instant: Date) throws(HistoryDatabaseError) -> UptimeReport.CurrentHealth? {
        let at = instant.millisecondsSince1970
        let watchedSince = memory.withLock { $0.watchedSince(at: at) }
        guard let shown = try newestForm(of: panel, atOrBefore: at, changingHealthTo: nil), let name = shown.headline?.health,
              let health = Health.allCases.first(where: { $0.name == name }), health != .unknown else { return nil }
        let began = shown.changesHealth ? shown : try newestForm(of: panel, atOrBefore: at, changingHealthTo: name)
        let since = began?.at ?? shown.at
        return UptimeReport.CurrentHealth(health: health, since: Date(millisecondsSince1970: since),
                                          watchedSince: Date(millisecondsSince1970: max(since, watchedSince)))
    }

    /// ``HistoryDatabase/panelForm(of:atOrBefore:changingHealthTo:)``, of the forms saved and
    /// those waiting to be alike.
    private func newestForm(of panel: String, atOrBefore at: Int64, changingHealthTo health: String?)
        throws(HistoryDatabaseError) -> MomentForm? {
        let waiting = memory.withLock { $0.unsavedPanelForm(of: panel, atOrBefore: at, changingHealthTo: health) }
        let saved = try database.panelForm(of: panel, atOrBefore: at, changingHealthTo: health)
        return [saved, waiting].compactMap { $0 }.max { $1.isNewer(than: $0) }
    }

    /// The saved entries `query` reads and those waiting to be saved, newest first: an entry
    /// saved between the two reads is listed once.
    public func auditEntries(_ query: AuditQuery) throws(HistoryStoreError) -> [AuditEntry] {
        let waiting = memory.withLock { $0.unsavedAudit }
        do {
            return query.select(from: waiting + (try database.auditEntries(query)))
        } catch {
            throw .unreadable(error.description)
        }
    }

    // MARK: Moments

    /// Keeps a form of a part of the state document, saved with the next batch (unless the same
    /// as its part's newest).
    public func keep(form: MomentForm) {
        memory.withLock { $0.keep(form: form, unsavedLimit: configuration.unsavedLimit) }
    }

    /// Keeps `forms`, the whole document of a deck followed anew, taken `at`: the panels the
    /// history knows that are not among them are gone from then on.
    public func keep(everyForm forms: [MomentForm], at: Date) {
        memory.withLock { $0.keep(everyForm: forms, at: at.millisecondsSince1970, unsavedLimit: configuration.unsavedLimit) }
    }

    /// The state document's parts at `instant`: each part's newest form at or before it (the
    /// latest by time, of two at one time the one kept last), saved or waiting to be.
    public func moment(at instant: Date) throws(MomentError) -> Moment {
        do {
            try readAnewUnlessWriting()
        } catch {
            throw .unreadable(error.description)
        }
        let now = configuration.clock.wall()
        let at = instant.millisecondsSince1970
        // Moments are named to the millisecond: "now", written out, rounds up as often as down.
        guard at <= now.millisecondsSince1970 else { throw .future(now: now) }
        let (waiting, watched, oldestWaiting) = memory.withLock { state in
            (state.unsavedForms(atOrBefore: at), state.isWatched(at), state.oldestUnsavedForm)
        }
        let (oldestSaved, saved): (Int64?, [MomentForm])
        do {
            (oldestSaved, saved) = (try database.oldestForm(), try database.forms(at: at))
        } catch {
            throw .unreadable(error.description)
        }
        let oldest = Self.oldest(saved: oldestSaved, waiting: oldestWaiting)
        guard let oldest, oldest <= at else { throw .beforeOldest(oldest.map(Date.init(millisecondsSince1970:))) }
        var forms = Dictionary(saved.map { ($0.part, $0) }, uniquingKeysWith: { $1 })
        forms.merge(waiting) { savedForm, waitingForm in savedForm.isNewer(than: waitingForm) ? savedForm : waitingForm }
        return Moment(at: instant, watched: watched, forms: forms)
    }

    /// A page of every panel's changes, oldest first, saved or waiting to be saved, ordered by
    /// time and then by position; one read both ways is listed once.
    public func deckChanges(_ query: HistoryQuery, order: ChangeOrder) throws(HistoryStoreError) -> DeckChangePage {
        let start = order == .oldestFirst ? HistoryCursor(at: .min, position: .min) : HistoryCursor(at: .max, position: .max)
        let range = FormChangeRange(from: query.from?.millisecondsSince1970 ?? .min, to: query.to?.millisecondsSince1970 ?? .max,
                                    cursor: query.cursor ?? start, limit: query.limit + 1, order: order)
        var (found, oldestWaiting) = memory.withLock { ($0.unsavedChanges(in: range), $0.oldestUnsavedForm) }
        let waitingPositions = Set(found.map(\.position))
        let oldestSaved: Int64?
        do {
            found += try database.formChanges(in: range).filter { !waitingPositions.contains($0.position) }
            oldestSaved = try database.oldestForm()
        } catch {
            throw .unreadable(error.description)
        }
        found.sort { order == .oldestFirst ? ($0.at, $0.position) < ($1.at, $1.position) : ($0.at, $0.position) > ($1.at, $1.position) }
        let page = found.prefix(query.limit)
        let next = found.count > query.limit ? page.last.map { HistoryCursor(at: $0.at, position: $0.position).description } : nil
        return DeckChangePage(changes: page.compactMap(DeckChange.init), next: next,
                              oldest: Self.oldest(saved: oldestSaved, waiting: oldestWaiting).map(Date.init(millisecondsSince1970:)))
    }

    /// The oldest instant a moment can be rebuilt for (milliseconds since 1970): the oldest form
    /// saved or waiting to be, nil while neither holds one.
    private static func oldest(saved: Int64?, waiting: Int64?) -> Int64? {
        [saved, waiting].compactMap { $0 }.min()
    }

    // MARK: The ledger

    /// Runs `body` on the ledger; with `saving`, commits whatever of it waits before returning.
    /// A commit that fails leaves it waiting for the next batch (or the next call), and says why
    /// as a failed save does: the notifier holds back the messages it has not kept meanwhile.
    public func withRecords<T>(saving: Bool, _ body: (inout NotificationRecords) -> T) -> T {
        let (value, failure) = records.withLock { records -> (T, HistoryDatabaseError?) in
            let value = body(&records)
            guard saving, records.hasUnsaved, !ledgerClosed.current else { return (value, nil) }
            do throws(HistoryDatabaseError) {
                try saveWaiting(&records)
            } catch {
                return (value, error)
            }
            return (value, nil)
        }
        if let failure { ledgerFailed(failure) }
        return value
    }

    /// Commits whatever of the ledger waits, taking the history over first where that is still
    /// to do; what fails stays waiting.
    private func saveWaiting(_ records: inout NotificationRecords) throws(HistoryDatabaseError) {
        try takeOverIfNotYet()
        guard records.hasUnsaved else { return }
        try database.commit(records.unsavedWrites)
        records.markSaved()
    }

    /// Claims `deliveries` in the database, after whatever of the ledger waits (``claim(deliveries:)``
    /// of ``HistoryDatabase``): nil while that cannot be written, none once another process took
    /// the history over.
    public func claim(_ deliveries: [PendingDelivery.ID]) -> Set<PendingDelivery.ID>? {
        let byID = Dictionary(deliveries.map { ($0.uuidString, $0) }, uniquingKeysWith: { first, _ in first })
        let claimed = records.withLock { records -> Result<Set<String>, HistoryDatabaseError> in
            guard !ledgerClosed.current else { return .success([]) }
            do throws(HistoryDatabaseError) {
                try saveWaiting(&records)
                return .success(try database.claim(deliveries: Array(byID.keys)))
            } catch {
                return .failure(error)
            }
        }
        switch claimed {
        case .success(let ids):
            return Set(ids.compactMap { byID[$0] })
        case .failure(let failure):
            ledgerFailed(failure)
            return failure.isFenced ? [] : nil
        }
    }

    /// Says why the ledger's write failed, as a failed save does; a process that another took the
    /// history over from stops writing.
    private func ledgerFailed(_ failure: HistoryDatabaseError) {
        memory.withLock { $0.failed(failure) }
        reportTrouble()
        if failure.isFenced, writing.withLock({ writing in
            defer { writing = false }
            stopCounting()
            return writing
        }) {
            tellLostWriting()
        }
    }
}
