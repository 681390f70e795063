import FoundationEssentials
import StateDeck

/// What a history store holds in memory whatever its database: the tallies of time as it passes,
/// what each panel shows, and what waits to be saved. A backend saves what waits, calls
/// ``markSaved()`` once it is committed, and answers queries with its stored rows merged here.
public struct HistoryState: Sendable {
    public let retention: HistoryRetention
    public private(set) var aggregator = HealthAggregator()
    /// What each panel shows, as far as the history tells.
    public private(set) var shown: [String: ShownState] = [:]
    /// Changes not saved yet, in the order they came.
    public private(set) var unsavedChanges: [(panel: String, entry: HistoryEntry)] = []
    private var unsavedRowsByKey: [RowKey: TallyRow] = [:]
    /// Panels whose shown state or health changed since the last save.
    public private(set) var unsavedShown: Set<String> = []
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

    private struct RowKey: Hashable {
        let panel: String
        let resolution: Resolution
        let start: Int64
    }

    /// The state of a store opened with `storedEventID` saved.
    public init(retention: HistoryRetention, storedEventID: UInt64) {
        self.retention = retention
        self.storedEventID = storedEventID
    }

    /// Tallies of ended buckets not saved yet.
    public var unsavedRows: [TallyRow] { Array(unsavedRowsByKey.values) }

    /// Continues `panel` from its stored `latest` row: what it showed, and its health since
    /// `since`, counted from `now` on, with its open hour and day holding `open` (``openTallies(now:stored:)``).
    public mutating func resume(_ panel: String, shown stored: ShownState, health: Health, since: Int64, now: Int64,
                                open: (hour: Tally, day: Tally)) {
        shown[panel] = stored
        aggregator.resume(panel, health: health, since: since, now: now, hour: open.hour, day: open.day)
    }

    /// What a panel's open hour and day hold at `now`, summed from its stored tallies:
    /// `stored(resolution, from)` gives those of `resolution` starting at or after `from`.
    public static func openTallies<Failure: Error>(
        now: Int64, stored: (Resolution, Int64) throws(Failure) -> [TallyRow]
    ) throws(Failure) -> (hour: Tally, day: Tally) {
        func sum(_ resolution: Resolution, from: Int64, to: Int64) throws(Failure) -> Tally {
            var total = Tally()
            for row in try stored(resolution, from) where row.start < to { total.merge(row.tally) }
            return total
        }
        let hourStart = Resolution.hour.start(of: now)
        let hour = try sum(.minute, from: hourStart, to: now)
        var day = try sum(.hour, from: Resolution.day.start(of: now), to: hourStart)
        day.merge(hour)
        return (hour, day)
    }

    /// Takes `changes` into the tallies and what waits to be saved, and counts time up to `now`:
    /// in memory only, so a query may do it too and answer with the newest changes. Past
    /// `unsavedLimit` changes or tallies (saving has failed for long), the oldest are dropped.
    public mutating func absorb(_ changes: [PanelChange], now: Date, unsavedLimit: Int) {
        for change in changes {
            aggregator.apply(change)
            if change.recorded { unsavedChanges.append((change.panel, HistoryEntry(change))) }
            if change.cause != .debug, change.recorded {
                shown[change.panel, default: ShownState()].apply(change)
                unsavedShown.insert(change.panel)
            }
        }
        aggregator.advance(to: now)
        for row in aggregator.takeClosedRows() {
            unsavedRowsByKey[RowKey(panel: row.panel, resolution: row.resolution, start: row.start)] = row
        }
        if unsavedChanges.count > unsavedLimit {
            dropped += unsavedChanges.count - unsavedLimit
            unsavedChanges.removeFirst(unsavedChanges.count - unsavedLimit)
        }
        if unsavedRowsByKey.count > unsavedLimit {
            let oldest = unsavedRowsByKey.keys.sorted { $0.start < $1.start }.prefix(unsavedRowsByKey.count - unsavedLimit)
            for key in oldest { unsavedRowsByKey[key] = nil }
        }
    }

    /// Whether a save at `now` (milliseconds since 1970) deletes what retention no longer keeps:
    /// once an hour.
    func isRetentionDue(at now: Int64) -> Bool {
        Resolution.hour.start(of: now) != expiredHour
    }

    /// Forgets what waited: the backend committed it, with `eventID`, at `now`, and ran
    /// retention when `expired`.
    mutating func markSaved(eventID: UInt64?, at now: Int64, expired: Bool) {
        unsavedChanges = []
        unsavedRowsByKey = [:]
        unsavedShown = []
        dropped = 0
        trouble = standingNotice
        if let eventID { storedEventID = eventID }
        if expired { expiredHour = Resolution.hour.start(of: now) }
    }

    /// Makes every panel's `latest` row, and the newest event id, wait to be saved again: what
    /// the store had saved is gone (its file was deleted and a new one made).
    public mutating func markLatestUnsaved() {
        unsavedShown = Set(shown.keys)
        storedEventID = 0
    }

    /// The `latest` row of `panel`: what it shows, its health and since when.
    public func latest(of panel: String) -> (shown: ShownState.StoredColumns, health: Health, since: Int64) {
        let track = aggregator.tracks[panel]
        return ((shown[panel] ?? ShownState()).stored, track?.health ?? .unknown, track?.since ?? 0)
    }

    /// The card of a failed save: "History is not being saved`place`. 12 changes wait in memory;
    /// saving resumes by itself once `condition`."
    public func troubleCard(_ kind: ErrorKind, title: String, notSaved place: String, resumesOnce condition: String,
                            detail: String?) -> PanelError {
        PanelError(kind, title: title,
                   message: "History is not being saved\(place). \(waitingSummary); saving resumes by itself once \(condition).",
                   detail: detail)
    }

    /// How much waits: "12 changes wait in memory and the 3 oldest were dropped".
    var waitingSummary: String {
        dropped > 0
            ? "\(unsavedChanges.count) changes wait in memory and the \(dropped) oldest were dropped"
            : "\(unsavedChanges.count) changes wait in memory"
    }
}

// MARK: - Reading

extension HistoryState {
    /// The stored changes a page needs: of one panel, at `from...to`, before `cursor` (by time,
    /// then position), newest first, at most `limit`.
    public struct ChangeRange: Sendable {
        public var from: Int64
        public var to: Int64
        public var cursor: HistoryCursor
        public var limit: Int
    }

    /// What `panel` showed and its newest `entries` (newest first, as a store reads them), or nil
    /// for a panel the history never saw show anything but forced states.
    public func memory(of panel: String, newestFirst entries: [ViewStateHistory.Entry]) -> PanelMemory? {
        guard let stored = shown[panel] else { return nil }
        return PanelMemory(entries: entries.reversed(), latestInfo: stored.info, latestError: stored.error?.panelError,
                           shown: stored.viewState, stale: stored.stale)
    }

    /// A page of `panel`'s changes, newest first, saved or waiting to be saved, ordered by time
    /// and then by position: a saved change's position in its store (`stored` reads those), or
    /// past every stored one for a change waiting, in the order they came.
    public func changes<Failure: Error>(
        of panel: String, _ query: HistoryQuery,
        stored: (ChangeRange) throws(Failure) -> [(entry: HistoryEntry, position: Int64)]
    ) throws(Failure) -> HistoryPage {
        let range = ChangeRange(from: query.from?.millisecondsSince1970 ?? .min, to: query.to?.millisecondsSince1970 ?? .max,
                                cursor: query.cursor ?? HistoryCursor(at: .max, position: .max), limit: query.limit + 1)
        func before(_ at: Int64, _ position: Int64) -> Bool {
            at < range.cursor.at || (at == range.cursor.at && position < range.cursor.position)
        }
        var found: [(entry: HistoryEntry, position: Int64)] = []
        for (index, waiting) in unsavedChanges.enumerated() where waiting.panel == panel {
            let at = waiting.entry.at.millisecondsSince1970
            let position = Self.firstWaitingPosition + Int64(index)
            if (range.from...range.to).contains(at), before(at, position) { found.append((waiting.entry, position)) }
        }
        found += try stored(range)
        found.sort { ($0.entry.at, $0.position) > ($1.entry.at, $1.position) }
        let page = found.prefix(query.limit)
        let next = found.count > query.limit ? page.last.map {
            HistoryCursor(at: $0.entry.at.millisecondsSince1970, position: $0.position).description
        } : nil
        return HistoryPage(entries: page.map(\.entry), next: next)
    }

    /// Positions of changes waiting to be saved start past any position a store gives.
    static let firstWaitingPosition: Int64 = 1 << 62

    /// `panel`'s uptime and timeline: saved tallies (`stored(resolution, from)`), those waiting
    /// to be saved, and the open ones counted up to `now`.
    public func uptime<Failure: Error>(
        of panel: String, _ query: TimelineQuery, now: Date,
        stored: (Resolution, Int64) throws(Failure) -> [TallyRow]
    ) throws(Failure) -> UptimeReport {
        let current = aggregator.tracks[panel].flatMap { track in
            track.health == .unknown ? nil : (track.health, Date(millisecondsSince1970: track.since))
        }
        return try UptimeReport(query: query, current: current, retention: retention) { resolution, from throws(Failure) in
            var rows: [Int64: TallyRow] = [:]
            for row in try stored(resolution, from) { rows[row.start] = row }
            for row in unsavedRowsByKey.values where row.panel == panel && row.resolution == resolution && row.start >= from {
                rows[row.start] = row
            }
            for row in aggregator.unsavedRows(of: panel, resolution, at: now) where row.start >= from {
                rows[row.start] = row
            }
            return Array(rows.values)
        }
    }
}
