import FoundationEssentials
import StateDeck

/// What a history keeper holds in memory whatever its database: the tallies of time as it passes,
/// what each panel shows, and what waits to be saved. The keeper commits a ``batch(eventID:)``
/// and calls ``markSaved(_:)``; a query is answered by a ``view(of:adding:at:)`` of one panel,
/// its saved rows merged in.
///
/// Clocks: timestamps and buckets follow the wall clock, but nothing is deleted on its word alone.
/// Retention's ``retentionNow`` is the wall clock when the store was opened, moved on by the time
/// that ran since (the running clock), never by a jump of the wall clock: set forward for a while
/// and back, it deletes nothing; set forward for good, history is kept that much longer, until the
/// next start reads the wall clock anew. Set back, retention deletes by the wall clock while it is
/// behind (``deletingBy``), so what is stamped at the new time is kept as long as any. A jump of
/// more than ``jumpTolerance`` either way ends the watch (the jump is watched by no one), and a
/// watch credits no time to instants another watch counted (``HistoryWatch/uncredited(among:)``),
/// so a jump back never counts a bucket twice.
///
/// What waits is kept by panel, so that a view of one panel is taken without going through the
/// others: a deck of 10,000 panels must answer a query while a batch of all of them waits.
public struct HistoryState: Sendable {
    public let retention: HistoryRetention
    public private(set) var aggregator: HealthAggregator
    /// What each panel shows, as far as the history tells.
    public private(set) var shown: [String: ShownState] = [:]
    /// Changes not saved yet, by panel, each panel's in the order they came, each with the
    /// position it is saved at.
    private var unsavedChanges: [String: [PositionedEntry]] = [:]
    /// How many changes wait, of every panel.
    public private(set) var unsavedChangeCount = 0
    /// The position the next change is saved at: positions are given as changes come, so that a
    /// page's cursor means the same entry before its save and after.
    private var nextPosition: Int64
    /// Tallies as buckets stood at minute ends, not saved yet, by panel.
    private var unsavedRowsByPanel: [String: [RowKey: TallyRow]] = [:]
    /// Panels whose shown state, health, last run or flapping count changed since the last save.
    private var unsavedShown: Set<String> = []
    /// When each heartbeat's newest run ended, in milliseconds since 1970: its next is due after it.
    private var lastRuns: [String: Int64] = [:]
    /// Each panel's flapping count, as its newest change carried it.
    private var flaps: [String: FlapRecord] = [:]
    /// Panels removed from the deck whose `latest` row is to be deleted.
    private var unsavedRemovals: Set<String> = []
    /// Every watch kept, this run's newest last.
    public private(set) var watches: [HistoryWatch]
    private var unsavedWatchIDs: Set<Int64> = []
    /// The clocks at the last count (or at opening), to tell a jump of the wall clock from time
    /// that passed.
    private var lastReading: HistoryClock.Reading
    /// Retention's clock (milliseconds since 1970): the wall clock at opening, moved on only by the
    /// time that ran since, so a jump of the wall clock forward deletes nothing.
    private(set) var retentionNow: Int64
    /// The furthest time an earlier run of this history deleted by (its ``deletingBy``): a run
    /// opened after the wall clock was set back starts behind it, and what it deleted is gone all
    /// the same.
    private var earlierRetentionNow: Int64?
    /// Changes dropped while saving failed for long.
    public private(set) var dropped = 0
    /// Why the last save failed; once one succeeds, ``standingNotice``.
    public internal(set) var trouble: PanelError?
    /// What the history should say for the rest of the run, even while saving works (its file
    /// was deleted and a new one made): a save that succeeds shows it in place of a failure.
    public var standingNotice: PanelError?
    /// The newest event id saved (0 for none).
    public private(set) var storedEventID: UInt64
    /// The hour retention last ran in.
    private var expiredHour: Int64 = 0
    /// Maintenance windows started through the API and stretches ended early, by id and start.
    public private(set) var maintenance: [MaintenanceSpan] = []
    /// Those not saved yet.
    private var unsavedMaintenance: [MaintenanceSpan] = []
    /// Audit entries not saved yet, oldest first.
    public private(set) var unsavedAudit: [AuditEntry] = []
    /// Incidents open and resolved within ``Incident/keptFor``, newest opened first.
    public private(set) var incidents: [Incident] = []
    /// Those opened or updated since the last save.
    private var unsavedIncidents: [Incident] = []
    /// The newest form of each part of the state document by time (of two at one time, the one
    /// kept last), saved or not: what a moment after all of them reads. After the wall clock was
    /// set back it is not the one kept last, and it is what retention keeps of a part's old forms,
    /// so a process that reopens the history knows what the one before it knew.
    var newestForms: [MomentForm.Part: MomentForm] = [:]
    /// The form of each part kept last: a panel's next form names its headline as the one it
    /// had before, in the order the deck decided them.
    var lastKeptForms: [MomentForm.Part: MomentForm] = [:]
    /// Each panel's `latest` row as the writing process last saved it, read by a process that
    /// does not write (``init(retention:reading:at:)``): the health it says is `current`, and the
    /// time the writer counted since its last save of tallies (``countSaved(stored:)``).
    private var savedLatest: [String: LatestRow] = [:]
    /// Whether this is another process's history, as it saved it: its watch going on was watched
    /// as far as its last save says, not up to now (its writer may have stopped since).
    private var readsAnother = false
    /// Forms not saved yet, in the order they came.
    var unsavedForms: [MomentForm] = []
    /// The position the next form is kept at.
    var nextFormPosition: Int64 = 1

    /// A wall clock that moved more than this apart from the time that ran has jumped.
    static let jumpTolerance: Int64 = 1_000

    private struct RowKey: Hashable {
        let resolution: Resolution
        let start: Int64
        let watch: Int64
    }

    /// The state of a store opened when the clocks read `opening` with `storedEventID`, the
    /// `watches` kept and changes saved up to `lastPosition`: a new watch starts.
    public init(retention: HistoryRetention, storedEventID: UInt64, watches: [HistoryWatch], lastPosition: Int64,
                opening: HistoryClock.Reading) {
        self.retention = retention
        self.storedEventID = storedEventID
        let now = opening.wall.millisecondsSince1970
        let watch = HistoryWatch.starting(at: now)
        self.watches = watches + [watch]
        unsavedWatchIDs = [watch.id]
        aggregator = HealthAggregator(watch: watch.id, uncredited: watch.uncredited(among: watches))
        nextPosition = lastPosition + 1
        lastReading = opening
        retentionNow = now
    }

    /// The history as the process writing it saved it, read at `reading` by one that does not
    /// write: its watches, the one saved last going on (its writer counts it, this one nothing),
    /// and each panel's health as saved (``savedHealths``). A view of it counts nothing after the
    /// writer's last save, so it answers the writer's figures as of then.
    public init(retention: HistoryRetention, reading stored: StoredHistory, at reading: HistoryClock.Reading) {
        let now = reading.wall.millisecondsSince1970
        let going = stored.watches.max { ($0.watchedTo, $0.started) < ($1.watchedTo, $1.started) } ?? HistoryWatch.starting(at: now)
        self.retention = retention
        storedEventID = stored.eventID
        watches = stored.watches.filter { $0.id != going.id } + [going]
        aggregator = HealthAggregator(watch: going.id)
        nextPosition = stored.lastPosition + 1
        lastReading = reading
        retentionNow = now
        earlierRetentionNow = stored.furthestRetentionNow
        maintenance = stored.maintenance
        incidents = stored.incidents.sorted { ($0.openedAt, $0.id) > ($1.openedAt, $1.id) }
        savedLatest = Dictionary(stored.latest.map { ($0.panel, $0) }, uniquingKeysWith: { $1 })
        readsAnother = true
    }

    /// This process stops writing the history (it lost the lead, or another took the history
    /// over): it holds what it counted as another's history, as ``init(retention:reading:at:)``
    /// does, counting nothing more, until it reads the history anew.
    public mutating func stopCounting() {
        savedLatest = Dictionary(uniqueKeysWithValues: aggregator.tracks.keys.map { ($0, latest(of: $0)) })
        aggregator = HealthAggregator(watch: aggregator.watch)
        readsAnother = true
    }

    /// The state of a store opened when the clocks read `opening` with what `stored` holds: each
    /// panel in its `latest` row is continued, counted from then on.
    public init(retention: HistoryRetention, stored: StoredHistory, opening: HistoryClock.Reading) {
        self.init(retention: retention, storedEventID: stored.eventID, watches: stored.watches,
                  lastPosition: stored.lastPosition, opening: opening)
        let now = opening.wall.millisecondsSince1970
        for row in stored.latest {
            resume(row.panel, shown: ShownState(stored: row.shown), health: row.health, since: row.since, now: now)
            lastRuns[row.panel] = row.lastRun
            flaps[row.panel] = FlapRecord(changes: row.flapChanges.map(Date.init(millisecondsSince1970:)),
                                          since: row.flappingSince.map(Date.init(millisecondsSince1970:)))
        }
        earlierRetentionNow = stored.furthestRetentionNow
        maintenance = stored.maintenance
        incidents = stored.incidents.sorted { ($0.openedAt, $0.id) > ($1.openedAt, $1.id) }
        newestForms = Dictionary(stored.forms.map { ($0.part, $0) }, uniquingKeysWith: { $0.isNewer(than: $1) ? $0 : $1 })
        lastKeptForms = Dictionary(stored.forms.map { ($0.part, $0) }, uniquingKeysWith: { $0.position > $1.position ? $0 : $1 })
        nextFormPosition = stored.lastFormPosition + 1
    }

    /// Everything that waits to be saved, with the server's newest event id `eventID` when it
    /// changed, and what retention deletes once an hour of ``retentionNow``.
    public func batch(eventID: UInt64?) -> HistoryBatch {
        // An open row is newer than one of its bucket handed out before (its panel removed from the
        // deck within the minute and added back): one row a bucket, as a database takes a batch.
        var tallies = unsavedRowsByPanel
        for row in aggregator.openRows() {
            tallies[row.panel, default: [:]][RowKey(resolution: row.resolution, start: row.start, watch: row.watch)] = row
        }
        return HistoryBatch(
            changes: unsavedChanges.flatMap { panel, entries in entries.map { (panel, $0.entry, $0.position) } },
            tallies: tallies.values.flatMap(\.values),
            latest: unsavedShown.map(latest(of:)),
            removedPanels: unsavedRemovals.sorted(),
            watches: watches.filter { unsavedWatchIDs.contains($0.id) },
            notifications: [],
            maintenance: unsavedMaintenance,
            audit: unsavedAudit,
            incidents: unsavedIncidents,
            forms: unsavedForms,
            eventID: eventID == storedEventID ? nil : eventID,
            expiry: isRetentionDue ? HistoryExpiry(now: deletingBy, retention: retention, counting: aggregator.watch) : nil)
    }

    /// Continues `panel` from its stored `latest` row: what it showed, and its health since
    /// `since`, counted from `now` on.
    public mutating func resume(_ panel: String, shown stored: ShownState, health: Health, since: Int64, now: Int64) {
        shown[panel] = stored
        aggregator.resume(panel, health: health, since: since, now: now)
    }

    /// Takes `changes` into the tallies and what waits to be saved, and counts time up to the
    /// `reading`'s wall time: in memory only, so a query may do it too and answer with the newest
    /// changes. Past `unsavedLimit` changes or tallies (saving has failed for long), the oldest are
    /// dropped.
    public mutating func absorb(_ changes: [PanelChange], at reading: HistoryClock.Reading, unsavedLimit: Int) {
        let beforeJump = stampedBeforeJump(to: reading)
        for change in changes where beforeJump(change) {
            take(change)
        }
        let now = countable(at: reading)
        for change in changes where !beforeJump(change) {
            take(change)
        }
        aggregator.advance(to: now)
        watchOn(to: now)
        // Every panel has passed the minutes before now, which handed out their hours and days.
        watches[watches.count - 1].talliedTo = max(watches[watches.count - 1].talliedTo, Resolution.minute.start(of: now))
        unsavedWatchIDs.insert(aggregator.watch)
        keepClosedRows()
        dropOldest(over: unsavedLimit)
    }

    /// Ends every panel the history counts or remembers that is not among `panels`, the deck's
    /// followed from now on: it was removed (a reload), or a deck was started without it. Its time
    /// is counted up to where it was counted last (absorb the queue at the reading first), its open
    /// buckets saved as they stand; it is counted no more (``HealthAggregator/end(_:)``), and its
    /// `latest` row (what it showed, its health, last run and flapping count) is deleted with the
    /// next save, so that no later open resumes it. Its changes, tallies and forms stay until
    /// retention deletes them by their age, as any panel's. A change of it later (it was added
    /// again) starts its health anew, as a panel never seen: watched since then.
    public mutating func remove(panelsOtherThan panels: Set<String>) {
        let counted = aggregator.tracks.keys.filter { !aggregator.hasEnded($0) }
        let known = Set(counted).union(shown.keys).union(lastRuns.keys).union(flaps.keys)
        for panel in known.subtracting(panels) {
            aggregator.end(panel)
            shown[panel] = nil
            lastRuns[panel] = nil
            flaps[panel] = nil
            unsavedShown.remove(panel)
            unsavedRemovals.insert(panel)
        }
        keepClosedRows()
    }

    /// The watch going on has watched up to `now` (milliseconds since 1970): a query's view says
    /// so too, or a watch ahead of it (the wall clock was set forward for a while and back) would
    /// make the time since the last save look unwatched.
    private mutating func watchOn(to now: Int64) {
        watches[watches.count - 1].watchedTo = max(watches[watches.count - 1].watchedTo, now)
    }

    /// Applies `change` to its panel's tallies and, when recorded, keeps it at the next position.
    private mutating func take(_ change: PanelChange) {
        let (wasForced, wasUnderMaintenance) = (aggregator.tracks[change.panel]?.forced,
                                                aggregator.tracks[change.panel]?.underMaintenance)
        aggregator.apply(change)
        if case .ping = change.cause {
            lastRuns[change.panel] = change.at.millisecondsSince1970
            unsavedShown.insert(change.panel)
        }
        if change.flaps != flaps[change.panel, default: FlapRecord()] {
            flaps[change.panel] = change.flaps
            unsavedShown.insert(change.panel)
        }
        // The `latest` row keeps the hold and the maintenance, so that a crash credits a held panel
        // no time and a panel under maintenance none up or down (one that never showed anything
        // else has no row, and no health to credit).
        if aggregator.tracks[change.panel]?.forced != wasForced
            || aggregator.tracks[change.panel]?.underMaintenance != wasUnderMaintenance, shown[change.panel] != nil {
            unsavedShown.insert(change.panel)
        }
        guard change.recorded else { return }
        unsavedChanges[change.panel, default: []].append((HistoryEntry(change), nextPosition))
        unsavedChangeCount += 1
        nextPosition += 1
        if change.cause != .debug {
            shown[change.panel, default: ShownState()].apply(change)
            unsavedShown.insert(change.panel)
        }
    }

    /// The wall time (milliseconds since 1970) time is counted to at `reading`: a jump of the wall
    /// clock since the last reading starts a new watch first. Retention's clock moves on by the
    /// time that ran.
    private mutating func countable(at reading: HistoryClock.Reading) -> Int64 {
        let ran = Self.ran(from: lastReading, to: reading)
        retentionNow += ran
        watchAcross(from: lastReading, to: reading, ran: ran)
        lastReading = reading
        return reading.wall.millisecondsSince1970
    }

    /// Tells whether a change waiting to be taken at `reading` was stamped before a jump of the wall
    /// clock since the last reading, on the timeline that jumped: within the time that ran from the
    /// last reading. Such a change is the ending watch's, taken before that watch ends, at its time:
    /// taken after, the new watch would count from the jump to it (time never lived, after a jump
    /// back) or only from the jump (losing the time before it). Always false without a jump.
    private func stampedBeforeJump(to reading: HistoryClock.Reading) -> (PanelChange) -> Bool {
        let (from, ran) = (lastReading.wall.millisecondsSince1970, Self.ran(from: lastReading, to: reading))
        guard Self.jumped(from: from, ran: ran, to: reading.wall.millisecondsSince1970) else { return { _ in false } }
        return { (from - Self.jumpTolerance...from + ran).contains($0.at.millisecondsSince1970) }
    }

    /// Whether the wall clock, at `from` when last read and at `now` after `ran` milliseconds ran,
    /// moved otherwise than that time: it was set forward or back, or the machine slept. Either way
    /// from where the time that ran puts it: set back by less than ran since the last reading, it
    /// is still behind instants already stamped (a change there would be counted ahead of it).
    private static func jumped(from: Int64, ran: Int64, to now: Int64) -> Bool {
        abs(now - (from + ran)) > jumpTolerance
    }

    /// The milliseconds that ran between two readings: by the running clock where both have it,
    /// else as far as the wall clock went forward (a virtual clock trusted to).
    private static func ran(from last: HistoryClock.Reading, to reading: HistoryClock.Reading) -> Int64 {
        if let running = reading.running, let lastRunning = last.running {
            return max(0, Int64(((running - lastRunning) / .milliseconds(1)).rounded(.down)))
        }
        return max(0, reading.wall.millisecondsSince1970 - last.wall.millisecondsSince1970)
    }

    private mutating func keepClosedRows() {
        for row in aggregator.takeClosedRows() {
            unsavedRowsByPanel[row.panel, default: [:]][RowKey(resolution: row.resolution, start: row.start, watch: row.watch)] = row
        }
    }

    /// Past `limit` changes or tallies waiting (saving has failed for long), drops the oldest
    /// changes, and the tallies of the finest resolution first.
    private mutating func dropOldest(over limit: Int) {
        if unsavedChangeCount > limit {
            let excess = unsavedChangeCount - limit
            // Positions are given in order, so the oldest hold the lowest.
            let cutoff = unsavedChanges.values.flatMap { $0.map(\.position) }.sorted()[excess]
            for panel in unsavedChanges.keys {
                unsavedChanges[panel]!.removeAll { $0.position < cutoff }
            }
            unsavedChanges = unsavedChanges.filter { !$0.value.isEmpty }
            dropped += excess
            unsavedChangeCount = limit
        }
        let rowCount = unsavedRowsByPanel.values.reduce(0) { $0 + $1.count }
        // Each minute's end hands out a row of every resolution for every panel counted, which
        // the next save takes: a deck of more panels than the limit keeps at least those.
        let rowLimit = max(limit, Resolution.allCases.count * aggregator.tracks.count)
        if rowCount > rowLimit {
            // Minutes go before hours and hours before days, the oldest first within each: the
            // 90-day and 2-year views keep what the 24-hour view loses first.
            let dropping = unsavedRowsByPanel.flatMap { panel, rows in rows.keys.map { (panel, $0) } }
                .sorted { ($0.1.resolution.rawValue, $0.1.start) < ($1.1.resolution.rawValue, $1.1.start) }
                .prefix(rowCount - rowLimit)
            for (panel, key) in dropping { unsavedRowsByPanel[panel]?[key] = nil }
        }
    }

    /// Starts a new watch when the wall clock moved otherwise than the `ran` milliseconds that ran
    /// (it was set forward or back, or the machine slept): the time that ran is counted in the
    /// watch that ends, and counting goes on from the new wall time, so the jump is credited to no
    /// one. After a jump back the new watch credits nothing until the wall clock passes what the
    /// watches before it counted: the first count of an instant stands.
    private mutating func watchAcross(from last: HistoryClock.Reading, to reading: HistoryClock.Reading, ran: Int64) {
        let (from, now) = (last.wall.millisecondsSince1970, reading.wall.millisecondsSince1970)
        guard Self.jumped(from: from, ran: ran, to: now) else { return }
        aggregator.advance(to: from + ran)
        // The watch's open buckets are handed out whole; its end is saved, or a store opening would
        // finish it again.
        watches[watches.count - 1].watchedTo = max(watches[watches.count - 1].watchedTo, from + ran)
        watches[watches.count - 1].talliedTo = watches[watches.count - 1].watchedTo
        unsavedWatchIDs.insert(aggregator.watch)
        let next = HistoryWatch.starting(at: now)
        aggregator.startWatch(next.id, at: now, uncredited: next.uncredited(among: watches))
        watches.append(next)
        unsavedWatchIDs.insert(next.id)
    }

    /// Finishes each watch that a stop or a crash ended (its hours and days saved up to its
    /// `talliedTo`, its open minutes saved only when they gained a load or a change of health):
    /// each panel's time since it was last counted, up to the watch's end, is counted in the health
    /// its `latest` row keeps (less what the watch leaves uncredited), and the minute, hour and day
    /// are saved whole. `stored(panel, watch,
    /// resolution, start)` reads a saved tally. Done once a store is open, for the first save.
    public mutating func finishEndedWatches<Failure: Error>(
        latest: [LatestRow], stored: (String, Int64, Resolution, Int64) throws(Failure) -> TallyRow?
    ) throws(Failure) {
        try finish(watches.indices.dropLast(), latest: latest, stored: stored)
    }

    /// For a process that does not write: counts what the writer counted up to its last save
    /// beyond the tallies it saved (a steady panel's open minute is saved at its end), as
    /// ``finishEndedWatches(latest:stored:)`` does at open, the watch going on too.
    public mutating func countSaved<Failure: Error>(
        stored: (String, Int64, Resolution, Int64) throws(Failure) -> TallyRow?
    ) throws(Failure) {
        try finish(watches.indices, latest: Array(savedLatest.values), stored: stored)
    }

    private mutating func finish<Failure: Error>(
        _ ended: some Sequence<Int>, latest: [LatestRow], stored: (String, Int64, Resolution, Int64) throws(Failure) -> TallyRow?
    ) throws(Failure) {
        for index in ended where watches[index].talliedTo < watches[index].watchedTo {
            let (watch, end) = (watches[index].id, watches[index].watchedTo)
            let minute = Resolution.minute.start(of: watches[index].talliedTo)
            let uncredited = watches[index].uncredited(among: watches)
            for row in latest {
                let open = try stored(row.panel, watch, .minute, minute)
                // A minute saved open before its counting time was kept holds time up to the watch's end.
                let countedFrom = open.map { $0.countedTo ?? end } ?? watches[index].talliedTo
                var track = HealthAggregator.Track(health: row.health, since: row.since, countedTo: countedFrom)
                track.forced = row.forced
                track.underMaintenance = row.underMaintenance
                for resolution in Resolution.allCases {
                    let start = resolution.start(of: minute)
                    let saved = resolution == .minute ? nil : try stored(row.panel, watch, resolution, start)
                    var tally = saved?.tally ?? Tally()
                    // An hour or day saved with the time it was counted to holds its open minute (its
                    // panel was removed from the deck within it, and added back).
                    if let open, saved?.countedTo == nil { tally.merge(open.tally) }
                    track[resolution] = HealthAggregator.Bucket(start: start, tally: tally)
                }
                var rows: [TallyRow] = []
                track.advance(to: end, panel: row.panel, watch: watch, skipping: uncredited, closing: &rows)
                for resolution in Resolution.allCases {
                    guard let bucket = track[resolution], !bucket.tally.isEmpty else { continue }
                    rows.append(TallyRow(panel: row.panel, resolution: resolution, start: bucket.start, watch: watch,
                                         tally: bucket.tally))
                }
                for row in rows {
                    unsavedRowsByPanel[row.panel, default: [:]][RowKey(resolution: row.resolution, start: row.start,
                                                                        watch: watch)] = row
                }
            }
            watches[index].talliedTo = end
            unsavedWatchIDs.insert(watch)
        }
    }

    /// Moves the positions of the changes and forms waiting past `stored`, the newest a store
    /// holds: another process wrote to a shared store since this one read it.
    public mutating func placeWaiting(after stored: StoredPositions) {
        placeChanges(after: stored.change)
        placeForms(after: stored.form)
    }

    private mutating func placeChanges(after storedPosition: Int64) {
        guard let first = unsavedChanges.values.compactMap(\.first?.position).min(), first <= storedPosition else {
            nextPosition = max(nextPosition, storedPosition + 1)
            return
        }
        let shift = storedPosition + 1 - first
        for panel in unsavedChanges.keys {
            for index in unsavedChanges[panel]!.indices { unsavedChanges[panel]![index].position += shift }
        }
        nextPosition += shift
    }

    /// As ``placeChanges(after:)``; a part's newest form, when it waits, moves with it.
    private mutating func placeForms(after storedPosition: Int64) {
        guard let first = unsavedForms.first?.position, first <= storedPosition else {
            nextFormPosition = max(nextFormPosition, storedPosition + 1)
            return
        }
        let shift = storedPosition + 1 - first
        for index in unsavedForms.indices { unsavedForms[index].position += shift }
        for (part, form) in newestForms where form.position >= first { newestForms[part]?.position += shift }
        for (part, form) in lastKeptForms where form.position >= first { lastKeptForms[part]?.position += shift }
        nextFormPosition += shift
    }

    /// Whether changes or forms wait to be saved: each needs a position no other process took.
    public var hasRowsToPlace: Bool { unsavedChangeCount > 0 || !unsavedForms.isEmpty }

    /// Keeps `spans` (maintenance windows started through the API or ended early) over those of
    /// the same id and start.
    public mutating func keep(_ spans: [MaintenanceSpan]) {
        for span in spans {
            maintenance.removeAll { $0.id == span.id && $0.from == span.from }
            maintenance.append(span)
            unsavedMaintenance.removeAll { $0.id == span.id && $0.from == span.from }
            unsavedMaintenance.append(span)
        }
    }

    /// Keeps an audit entry to save; past `unsavedLimit` waiting (saving has failed for long), the
    /// oldest is dropped.
    public mutating func audit(_ entry: AuditEntry, unsavedLimit: Int) {
        unsavedAudit.append(entry)
        if unsavedAudit.count > unsavedLimit { unsavedAudit.removeFirst() }
    }

    /// Keeps `kept` (incidents just opened or updated) over those of the same id.
    public mutating func keep(incidents kept: [Incident]) {
        for incident in kept {
            incidents.removeAll { $0.id == incident.id }
            incidents.append(incident)
            unsavedIncidents.removeAll { $0.id == incident.id }
            unsavedIncidents.append(incident)
        }
        incidents.sort { ($0.openedAt, $0.id) > ($1.openedAt, $1.id) }
    }

    /// The time (milliseconds since 1970) retention deletes by: its now, or the wall clock at the
    /// last count where that is behind it (it was set back): what is stamped at the wall time is
    /// deleted once it is older than its retention by both clocks, not within the hour.
    private var deletingBy: Int64 {
        min(retentionNow, lastReading.wall.millisecondsSince1970)
    }

    /// Whether a save deletes what retention no longer keeps: once an hour of ``retentionNow``.
    var isRetentionDue: Bool {
        Resolution.hour.start(of: retentionNow) != expiredHour
    }

    /// Forgets what waited: the database committed `batch`, the whole of it, since nothing else
    /// changes what waits while a save is under way (the keeper saves one batch at a time, and a
    /// query only takes a ``view(of:adding:at:)``).
    public mutating func markSaved(_ batch: HistoryBatch) {
        unsavedChanges = [:]
        unsavedChangeCount = 0
        unsavedRowsByPanel = [:]
        aggregator.markOpenRows(saved: true)
        unsavedShown = []
        unsavedRemovals.subtract(batch.removedPanels)
        unsavedWatchIDs = []
        // Kept during the commit (by another thread than the writer's), a window or an incident's
        // newer version is not in the batch: it still waits; so does an audit entry.
        unsavedMaintenance.removeAll(where: batch.maintenance.contains)
        unsavedAudit.removeAll(where: batch.audit.contains)
        unsavedIncidents.removeAll(where: batch.incidents.contains)
        // Forms kept during the commit came after the batch's.
        if let last = batch.forms.last?.position { unsavedForms.removeAll { $0.position <= last } }
        dropped = 0
        trouble = standingNotice
        if let eventID = batch.eventID { storedEventID = eventID }
        if let expiry = batch.expiry {
            // The batch was taken at this count: retention's clock has not moved since.
            expiredHour = Resolution.hour.start(of: retentionNow)
            let cutoff = retention.cutoff(of: .day, now: expiry.now)
            watches.removeAll { $0.watchedTo < cutoff && $0.id != aggregator.watch }
            maintenance.removeAll { $0.until.millisecondsSince1970 < cutoff }
            let incidentCutoff = Incident.StoredColumns.cutoff(now: expiry.now)
            incidents.removeAll { ($0.resolvedAt?.millisecondsSince1970).map { $0 < incidentCutoff } ?? false }
            // As the store deletes them: a part gone before the cutoff is in no moment kept (each
            // incident and window is a part, so these would grow with every one ever opened).
            let formsCutoff = retention.changesCutoff(now: expiry.now)
            newestForms = newestForms.filter { $0.value.json != MomentForm.gone || $0.value.at >= formsCutoff }
            lastKeptForms = lastKeptForms.filter { newestForms[$0.key] != nil }
        }
    }

    /// Makes every panel's `latest` row, its open buckets, the watches and the newest event id
    /// wait to be saved again: what the store had saved is gone (its file was deleted and a new
    /// one made).
    public mutating func markLatestUnsaved() {
        unsavedShown = Set(shown.keys)
        aggregator.markOpenRows(saved: false)
        unsavedWatchIDs = Set(watches.map(\.id))
        unsavedMaintenance = maintenance
        unsavedIncidents = incidents
        unsavedForms = Dictionary((Array(newestForms.values) + lastKeptForms.values).map { ($0.position, $0) }, uniquingKeysWith: { $1 })
            .values.sorted { $0.position < $1.position }
        storedEventID = 0
    }

    /// The `latest` row of `panel`: what it shows, its health and since when.
    func latest(of panel: String) -> LatestRow {
        let track = aggregator.tracks[panel]
        return LatestRow(panel: panel, shown: (shown[panel] ?? ShownState()).stored, health: track?.health ?? .unknown,
                         since: track?.since ?? 0, forced: track?.forced ?? false, lastRun: lastRuns[panel],
                         underMaintenance: track?.underMaintenance ?? false,
                         flapChanges: flaps[panel]?.changes.map(\.millisecondsSince1970) ?? [],
                         flappingSince: flaps[panel]?.since?.millisecondsSince1970)
    }

    /// Says why a save failed: "History is not being saved`place`. 12 changes wait in memory;
    /// saving resumes by itself once `condition`."
    public mutating func failed(_ error: HistoryDatabaseError) {
        trouble = PanelError(
            error.kind, title: error.title,
            message: "History is not being saved\(error.notSaved). \(waitingSummary); saving resumes by itself once \(error.resumesOnce).",
            detail: error.detail)
    }

    /// How much waits: "12 changes wait in memory and the 3 oldest were dropped".
    var waitingSummary: String {
        dropped > 0
            ? "\(unsavedChangeCount) changes wait in memory and the \(dropped) oldest were dropped"
            : "\(unsavedChangeCount) changes wait in memory"
    }
}

// MARK: - Reading

extension HistoryState {
    /// What `panel` showed and its newest `entries` (newest first, as a store reads them), or nil
    /// for a panel the history never saw show anything but forced states.
    public func memory(of panel: String, newestFirst entries: [ViewStateHistory.Entry]) -> PanelMemory? {
        guard let stored = shown[panel] else { return nil }
        return PanelMemory(entries: entries.reversed(), latestInfo: stored.info, latestError: stored.error?.panelError,
                           shown: stored.viewState, stale: stored.stale,
                           health: aggregator.tracks[panel]?.health ?? .unknown,
                           lastRun: lastRuns[panel].map(Date.init(millisecondsSince1970:)),
                           flaps: flaps[panel] ?? FlapRecord())
    }

    /// Whether the history knows what `panel` showed.
    public func knows(_ panel: String) -> Bool { shown[panel] != nil }

    /// `panel` alone, as it stands with `queued` (changes of every panel, in order, not absorbed
    /// yet) taken in and time counted to `reading`: what a query about the panel needs, taken
    /// without going through the other panels or changing this state. Each queued change gets the
    /// position ``absorb(_:at:unsavedLimit:)`` will give it, so a page's cursor holds.
    public func view(of panel: String, adding queued: [PanelChange], at reading: HistoryClock.Reading) -> HistoryState {
        var view = HistoryState(panel, of: self)
        var position = nextPosition
        var mine: [(change: PanelChange, position: Int64)] = []
        for change in queued {
            if change.panel == panel { mine.append((change, position)) }
            if change.recorded { position += 1 }
        }
        let beforeJump = stampedBeforeJump(to: reading)
        for entry in mine where beforeJump(entry.change) {
            view.nextPosition = entry.position
            view.take(entry.change)
        }
        let now = view.countable(at: reading)
        for entry in mine where !beforeJump(entry.change) {
            view.nextPosition = entry.position
            view.take(entry.change)
        }
        view.nextPosition = position
        view.aggregator.advance(to: now)
        if !readsAnother { view.watchOn(to: now) }
        view.keepClosedRows()
        return view
    }

    /// `panel`'s part of `state`.
    private init(_ panel: String, of state: HistoryState) {
        retention = state.retention
        aggregator = state.aggregator.only(panel)
        shown = state.shown[panel].map { [panel: $0] } ?? [:]
        unsavedChanges = state.unsavedChanges[panel].map { [panel: $0] } ?? [:]
        unsavedChangeCount = unsavedChanges[panel]?.count ?? 0
        nextPosition = state.nextPosition
        unsavedRowsByPanel = state.unsavedRowsByPanel[panel].map { [panel: $0] } ?? [:]
        watches = state.watches
        savedLatest = state.savedLatest[panel].map { [panel: $0] } ?? [:]
        readsAnother = state.readsAnother
        lastReading = state.lastReading
        retentionNow = state.retentionNow
        earlierRetentionNow = state.earlierRetentionNow
        storedEventID = state.storedEventID
        expiredHour = state.expiredHour
    }

    /// A page of `panel`'s changes, newest first, saved or waiting to be saved, ordered by time
    /// and then by position: the one each change got as it came, which its store keeps (`stored`
    /// reads those), so a page's cursor holds across a save. A change read both here and saved
    /// (saved since this state was taken) is listed once.
    public func changes<Failure: Error>(
        of panel: String, _ query: HistoryQuery, stored: (ChangeRange) throws(Failure) -> [PositionedEntry]
    ) throws(Failure) -> HistoryPage {
        let range = ChangeRange(from: query.from?.millisecondsSince1970 ?? .min, to: query.to?.millisecondsSince1970 ?? .max,
                                cursor: query.cursor ?? HistoryCursor(at: .max, position: .max), limit: query.limit + 1)
        func before(_ at: Int64, _ position: Int64) -> Bool {
            at < range.cursor.at || (at == range.cursor.at && position < range.cursor.position)
        }
        var found: [PositionedEntry] = []
        for waiting in unsavedChanges[panel] ?? [] {
            let at = waiting.entry.at.millisecondsSince1970
            if (range.from...range.to).contains(at), before(at, waiting.position) { found.append(waiting) }
        }
        let waitingPositions = Set(found.map(\.position))
        found += try stored(range).filter { !waitingPositions.contains($0.position) }
        found.sort { ($0.entry.at, $0.position) > ($1.entry.at, $1.position) }
        let page = found.prefix(query.limit)
        let next = found.count > query.limit ? page.last.map {
            HistoryCursor(at: $0.entry.at.millisecondsSince1970, position: $0.position).description
        } : nil
        return HistoryPage(entries: page.map(\.entry), next: next)
    }

    /// `panel`'s uptime and timeline: saved tallies (`stored(resolution, from)`), those waiting
    /// to be saved, and the open ones counted up to `now`. A bucket both saved and here is taken
    /// from here, where it is counted furthest.
    public func uptime<Failure: Error>(
        of panel: String, _ query: TimelineQuery, now: Date,
        stored: (Resolution, Int64) throws(Failure) -> [TallyRow]
    ) throws(Failure) -> UptimeReport {
        let counted = aggregator.tracks[panel].map { (health: $0.health, since: $0.since) }
            ?? savedLatest[panel].map { (health: $0.health, since: $0.since) }
        let current = counted.flatMap { counted -> UptimeReport.CurrentHealth? in
            guard counted.health != .unknown else { return nil }
            return UptimeReport.CurrentHealth(health: counted.health, since: Date(millisecondsSince1970: counted.since),
                                              watchedSince: Date(millisecondsSince1970: max(counted.since, watchedSince)))
        }
        let watchedBefore = watches.dropLast().map {
            UptimeReport.Stretch(from: Date(millisecondsSince1970: $0.started), to: Date(millisecondsSince1970: $0.watchedTo))
        }
        // This run deleted by no later than retention's now.
        let deletedBy = max(retentionNow, earlierRetentionNow ?? retentionNow)
        return try UptimeReport(query: query, now: now, current: current, unwatched: unwatched, watchedBefore: watchedBefore,
                                retention: retention, retentionNow: Date(millisecondsSince1970: deletedBy)) {
            resolution, from throws(Failure) in
            var rows: [RowKey: TallyRow] = [:]
            func keep(_ row: TallyRow) {
                rows[RowKey(resolution: resolution, start: row.start, watch: row.watch)] = row
            }
            for row in try stored(resolution, from) { keep(row) }
            for row in (unsavedRowsByPanel[panel] ?? [:]).values where row.resolution == resolution && row.start >= from {
                keep(row)
            }
            for row in aggregator.unsavedRows(of: panel, resolution, at: now) where row.start >= from { keep(row) }
            return Array(rows.values)
        }
    }

    /// The stretches, oldest first, that no watch covered since the first began.
    var unwatched: [UptimeReport.Stretch] {
        var stretches: [UptimeReport.Stretch] = []
        var coveredTo: Int64?
        for watch in watches.sorted(by: { $0.started < $1.started }) {
            if let coveredTo, watch.started > coveredTo {
                stretches.append(UptimeReport.Stretch(from: Date(millisecondsSince1970: coveredTo),
                                                      to: Date(millisecondsSince1970: watch.started)))
            }
            coveredTo = max(coveredTo ?? watch.watchedTo, watch.watchedTo)
        }
        return stretches
    }

    /// When the watch that goes on now began, or the watches without a break before it.
    var watchedSince: Int64 {
        watchedSince(at: watches[watches.count - 1].started)
    }

    /// When the watch going on at `at` (milliseconds since 1970) began, or the watches without a
    /// break before it.
    func watchedSince(at: Int64) -> Int64 {
        unwatched.last { $0.to.millisecondsSince1970 <= at }?.to.millisecondsSince1970 ?? watches.map(\.started).min() ?? at
    }
}
