import FoundationEssentials
import Locking
import StateDeck
import StateDeckHistory
import StateDeckNotifications
import Testing

/// A history store a test can tell to save now, as both stores can.
public protocol FlushingHistoryStore: HistoryStore, NotificationLedger {
    func flush()
}

/// What every history store does alike, checked against one backend: each scenario opens its
/// stores with `open` (saving only when told, on the contract's virtual clocks) and moves the clocks.
public struct HistoryStoreContract<Store: FlushingHistoryStore>: Sendable {
    /// A day boundary, so that minutes, hours and days start with the scenario.
    public static var start: Date { Date(millisecondsSince1970: 20_000 * 86_400_000) }
    /// The wall clock, and the time the (virtual) machine ran.
    public let clock = Locked((wall: HistoryStoreContract.start, running: Duration.zero))
    private let opener: @Sendable (_ clock: HistoryClock) throws -> Store
    private let crashOpener: @Sendable (_ clock: HistoryClock) throws -> Store

    /// `open(clock)` opens the store under test with `clock` as its clocks and its writer off;
    /// `openAfterCrash(clock)` opens, the same way, what a `kill -9` of the store open now leaves.
    public init(open: @escaping @Sendable (_ clock: HistoryClock) throws -> Store,
                openAfterCrash: @escaping @Sendable (_ clock: HistoryClock) throws -> Store) {
        opener = open
        crashOpener = openAfterCrash
    }

    public func open() throws -> Store {
        try opener(historyClock)
    }

    /// What a `kill -9` of the store open now leaves, opened: it is never closed.
    public func openAfterCrash() throws -> Store {
        try crashOpener(historyClock)
    }

    public var historyClock: HistoryClock {
        HistoryClock(wall: { [clock] in clock.current.wall }, running: { [clock] in clock.current.running })
    }

    public var now: Date { clock.current.wall }

    /// Time passes.
    public func advance(by duration: Duration) {
        clock.withLock { $0 = ($0.wall.addingTimeInterval(duration / .seconds(1)), $0.running + duration) }
    }

    /// The wall clock is set forward (or back, for a negative `duration`), or the machine sleeps:
    /// the wall moves, and no time runs.
    public func jumpWallClock(by duration: Duration) {
        clock.withLock { $0.wall = $0.wall.addingTimeInterval(duration / .seconds(1)) }
    }

    /// The time `seconds` after the scenario's start.
    public func at(_ seconds: Double) -> Date {
        Self.start.addingTimeInterval(seconds)
    }

    /// A change with the health the deck would decide for a panel with no result before, unless told.
    public func change(_ panel: String, _ state: ViewState, cause: PanelChange.Cause = .load(.milliseconds(25)),
                       health: Health? = nil) -> PanelChange {
        PanelChange(panel: panel, at: now, state: state, cause: cause, health: health ?? Health.unknown.after(state, cause: cause))
    }

    /// Pages of changes, newest first, with their cursors and time ranges.
    public func changesAreListedNewestFirstInPages() throws {
        let store = try open()
        for index in 0..<5 {
            store.record(change("p", .loaded(Info(summary: "run \(index)"))))
            advance(by: .seconds(10))
        }
        store.record(change("p", .error(PanelError(.timeout, detail: "after 5 s"))))
        store.record(change("q", .loading, cause: .view))
        store.flush()
        #expect(store.trouble == nil)
        let first = try store.changes(of: "p", HistoryQuery(limit: 4))
        #expect(first.entries.map(\.summary) == ["The service took too long to answer.", "run 4", "run 3", "run 2"])
        #expect(first.entries.first?.errorKind == .timeout)
        #expect(first.entries.first?.detail == "after 5 s")
        #expect(first.entries.first?.durationMs == 25)
        let cursor = try #require(first.next.flatMap(HistoryCursor.init))
        let second = try store.changes(of: "p", HistoryQuery(limit: 4, cursor: cursor))
        #expect(second.entries.map(\.summary) == ["run 1", "run 0"])
        #expect(second.next == nil)
        let ranged = try store.changes(of: "p", HistoryQuery(from: Self.start.addingTimeInterval(15),
                                                             to: Self.start.addingTimeInterval(35)))
        #expect(ranged.entries.map(\.summary) == ["run 3", "run 2"])
        store.close()
    }

    /// What each panel showed, its newest states, its event ids and its time down, across a reopen.
    public func aReopenedStoreRemembersWhatEachPanelShowedItsTalliesAndEventIds() async throws {
        do {
            let store = try open()
            store.trackEventIDs { 4_242 }
            store.record(change("up", .loading, cause: .view))
            store.record(change("up", .loaded(Info(summary: "All good", fields: [.init("Jobs", "3")]))))
            store.record(change("down", .loaded(Info(summary: "Was fine"))))
            store.record(change("down", .error(PanelError(.serverError, title: "Boom", detail: "HTTP 500"))))
            store.record(change("down", .loading, cause: .view, health: .down))
            store.record(change("forced", .error(PanelError(.unknown)), cause: .debug))
            advance(by: .seconds(120))
            store.close()
        }
        let store = try open()
        #expect(store.lastEventID == 4_242)
        let memories = store.memories(of: ["up", "down", "forced", "never"])
        #expect(Set(memories.keys) == ["up", "down"], "forced states are history, never what a panel shows")
        #expect(try store.changes(of: "forced", HistoryQuery()).entries.map(\.debug) == [true])
        let deck = Deck("d", panels: ["up", "down", "forced"].map { id in Panel(id, title: id) { Info() } })
        await deck.restore(memories)
        let up = try await deck.panelState("up")
        #expect(up.restored)
        #expect(up.phase == .loaded)
        #expect(up.latestValidInfo?.fields?.first?.value == "3")
        #expect(up.history.map(\.state) == [.loading, .loaded])
        let down = try await deck.panelState("down")
        #expect(down.phase == .error, "a load cut short by the stop is not what it showed")
        #expect(down.latestValidError?.title == "Boom")
        #expect(down.latestInfo?.summary == "Was fine")
        advance(by: .seconds(30))
        let report = try store.uptime(of: "down", TimelineQuery(span: .seconds(3_600), slots: 1, to: now))
        #expect(report.current?.health == .down)
        #expect(report.slots.first?.tally.downMs == 150_000, "the two minutes before the stop, and 30 s after")
        store.close()
    }

    /// Outages and deliveries not done come back after a reopen, the deliveries handed out once;
    /// a delivery another replaced is gone with the replacement's keep.
    public func outagesAndDeliveriesNotDoneComeBackAfterAReopenOnce() throws {
        let told = LedgerSamples.toldOutage(at: now)
        let failure = LedgerSamples.delivery(.failure, at: now)
        let webFailure = LedgerSamples.delivery(.failure, key: "web#0", at: now)
        let recovery = LedgerSamples.delivery(.recovery, key: "web#0", at: now.addingTimeInterval(60))
        do {
            let store = try open()
            store.keep(told, for: "api#0", delivering: failure)
            store.keep(LedgerSamples.toldOutage(at: now), for: "db#1", delivering: nil)
            store.keep(nil, for: "db#1", delivering: nil)
            store.keep(LedgerSamples.toldOutage(at: now), for: "web#0", delivering: webFailure)
            store.keep(nil, for: "web#0", delivering: recovery, replacing: webFailure.id)
            store.close()
        }
        do {
            let store = try open()
            #expect(store.outages() == ["api#0": told])
            #expect(store.takeUndelivered().map(\.id) == [failure.id, recovery.id])
            #expect(store.takeUndelivered().isEmpty, "handed out once: the next notifier of this run must not send it again")
            store.finished(failure.id)
            store.finished(recovery.id)
            store.close()
        }
        let reopened = try open()
        #expect(reopened.takeUndelivered().isEmpty)
        #expect(reopened.outages() == ["api#0": told])
        reopened.close()
    }

    /// A stop saves the minute in progress (its hour and day hold it once a store opens again),
    /// and the time stopped is no data: not in any ratio, a stretch not watched, and the health
    /// now watched only since the start.
    public func aStopKeepsTheOpenMinuteAndTheTimeStoppedIsNoData() throws {
        do {
            let store = try open()
            advance(by: .seconds(50))
            store.record(change("p", .loaded(Info())))
            advance(by: .seconds(9))
            store.record(change("p", .error(PanelError(.timeout))))
            advance(by: .seconds(6))
            store.record(change("p", .loaded(Info())))
            advance(by: .seconds(5))
            store.close()
        }
        advance(by: .seconds(120))
        do {
            let store = try open()
            advance(by: .seconds(10))
            let report = try store.uptime(of: "p", TimelineQuery(span: .seconds(240), slots: 4, to: now))
            #expect(report.slots.map(\.from) == [at(0), at(60), at(120), at(180)])
            #expect(report.slots.map(\.to) == [at(60), at(120), at(180), at(200)])
            let tallies = report.slots.map(\.tally)
            #expect(tallies.map { [$0.upMs, $0.downMs, Int64($0.loads), Int64($0.failures)] }
                == [[9_000, 1_000, 2, 1], [5_000, 5_000, 1, 0], [0, 0, 0, 0], [10_000, 0, 0, 0]],
                "the minutes before the stop as they were counted, the one in progress included; then the start")
            #expect(tallies[0].averageMs == 25)
            #expect(report.day == 24.0 / 30.0, "the hour holds the minute the stop came in")
            #expect(report.unwatched == [UptimeReport.Stretch(from: at(70), to: at(190))])
            #expect(report.current == UptimeReport.CurrentHealth(health: .up, since: at(65), watchedSince: at(190)))
            store.close()
        }
        let reopened = try open()
        #expect(try reopened.uptime(of: "p", TimelineQuery(span: .seconds(240), slots: 4, to: now)).day == 24.0 / 30.0,
                "the hour holds the 10 s of a watch that began and ended within a minute")
        reopened.close()
    }

    /// A `kill -9` loses only the time since the last save: a steady panel's open minute, saved
    /// when it gained a load or a change and not at every save since, is counted on to the last
    /// save in the health it had; a panel a debug command held is credited nothing.
    public func aCrashLosesOnlyTheTimeSinceTheLastSave() throws {
        let store = try open()
        advance(by: .seconds(10))
        store.record(change("p", .loaded(Info())))
        store.record(change("q", .loaded(Info())))
        store.flush()
        advance(by: .seconds(20))
        store.flush()
        advance(by: .seconds(10))
        store.record(change("q", .error(PanelError(.timeout)), cause: .debug))
        advance(by: .seconds(5))
        store.record(change("p", .error(PanelError(.timeout))))
        store.flush()
        advance(by: .seconds(25))
        store.flush()
        advance(by: .seconds(20))
        store.flush()
        advance(by: .milliseconds(500))
        store.record(change("p", .loaded(Info())))
        // Killed here: the last save was at 90 s.
        advance(by: .milliseconds(29_500))
        let after = try openAfterCrash()
        let report = try after.uptime(of: "p", TimelineQuery(span: .seconds(120), slots: 2, to: now))
        #expect(report.slots.map { [$0.tally.upMs, $0.tally.downMs, Int64($0.tally.loads), Int64($0.tally.failures)] }
            == [[35_000, 15_000, 2, 1], [0, 30_000, 0, 0]], "down from 45 s to the last save, at 90 s")
        #expect(report.unwatched == [UptimeReport.Stretch(from: at(90), to: at(120))])
        #expect(report.current == UptimeReport.CurrentHealth(health: .down, since: at(45), watchedSince: at(120)))
        #expect(report.day == 35.0 / 80.0, "the hour holds the minute the crash came in")
        let held = try after.uptime(of: "q", TimelineQuery(span: .seconds(120), slots: 2, to: now))
        #expect(held.slots.map(\.tally.upMs) == [30_000, 0], "up from 10 s until held at 40 s, then nowhere")
        after.close()
    }

    /// A heartbeat's last run is saved with its panel, whether the ping changed what it shows or
    /// only measured a run, so a deck restored after a `kill -9` expects the next run when it did.
    public func aHeartbeatsLastRunSurvivesACrash() async throws {
        let store = try open()
        store.record(change("beat", .loaded(Info(summary: "Ran")), cause: .ping(nil)))
        store.flush()
        advance(by: .seconds(30))
        var measured = change("beat", .loaded(Info(summary: "Ran")), cause: .ping(.seconds(3)), health: .up)
        measured.recorded = false
        store.record(measured)
        store.flush()
        advance(by: .seconds(5))
        let after = try openAfterCrash()
        let deck = Deck("d", configuration: Deck.Configuration(now: { [clock] in clock.current.wall }), panels: [
            Panel("beat", title: "Beat", heartbeat: .every(.seconds(60), grace: .seconds(10))),
        ])
        await deck.restore(after.memories(of: ["beat"]))
        await deck.start()
        let restored = try await deck.panelState("beat")
        #expect(restored.heartbeat?.lastRun == at(30))
        #expect(restored.heartbeat?.lateAt == at(100), "a minute and the grace after the measured run")
        #expect(restored.health == .up)
        await deck.stop()
        after.close()
    }

    /// A panel's flapping count is saved with its panel, so a deck continued after a `kill -9`
    /// flaps from the same `since` with the changes saved (one after the last save is lost); one
    /// continued once the window passed since the newest change, or with flapping off, does not.
    public func aFlappingCountSurvivesACrash() async throws {
        let store = try open()
        let up = Info(summary: "Up"), down = Info(summary: "Down")
        func flap(_ info: Info, _ health: Health, _ flaps: FlapRecord) {
            var flapped = change("api", .loaded(info), health: health)
            flapped.flaps = flaps
            store.record(flapped)
        }
        flap(up, .up, FlapRecord())
        advance(by: .seconds(60))
        flap(down, .down, FlapRecord(changes: [at(60)]))
        advance(by: .seconds(60))
        flap(up, .up, FlapRecord(changes: [at(60), at(120)], since: at(120)))
        store.flush()
        advance(by: .seconds(60))
        flap(down, .down, FlapRecord(changes: [at(60), at(120), at(180)], since: at(120)))
        advance(by: .seconds(5))
        let memories = try openAfterCrash().memories(of: ["api"])
        func flapping(under rule: FlappingRule?) async throws -> FlappingStatus? {
            var configuration = Deck.Configuration(now: { [clock] in clock.current.wall })
            configuration.flapping = rule
            let deck = Deck("d", configuration: configuration, panels: [Panel("api", title: "API") { up }])
            await deck.restore(memories)
            return try await deck.panelState("api").flapping
        }
        let rule = FlappingRule(changes: 1, within: .seconds(600))
        #expect(try await flapping(under: rule) == FlappingStatus(since: at(120), changes: 2, within: "10 min"))
        #expect(try await flapping(under: nil) == nil)
        advance(by: .seconds(535) - .milliseconds(1))
        #expect(try await flapping(under: rule)?.since == at(120), "a millisecond before the window passed")
        advance(by: .milliseconds(1))
        #expect(try await flapping(under: rule) == nil, "the window passed since the change at 2 min")
        store.close()
    }

    /// A window started by hand is kept, so a deck continued after a `kill -9` opens it again; an
    /// early end is kept over its window; a panel's time under a window counts as maintenance, in no
    /// uptime ratio; the mark that opened it is no change of the history.
    public func aMaintenanceWindowOutlivesACrashAndItsTimeCountsApart() async throws {
        let store = try open()
        store.record(change("p", .loaded(Info())))
        advance(by: .seconds(10))
        store.record(change("p", .error(PanelError(.timeout)), health: .down))
        advance(by: .seconds(10))
        let window = MaintenanceSpan(id: "api-1", reason: "Disk swap", panels: ["p"], from: now,
                                     until: now.addingTimeInterval(600), source: .api)
        var ended = MaintenanceSpan(id: "api-2", reason: "Reboot", panels: ["q"], from: now,
                                    until: now.addingTimeInterval(600), source: .api)
        store.record(PanelChange(panel: "p", at: now, state: .error(PanelError(.timeout)), cause: .mark, health: .down,
                                 recorded: false, maintenance: MaintenanceMark(id: "api-1", reason: "Disk swap", until: window.until)))
        store.keep([window, ended])
        advance(by: .seconds(10))
        store.flush()
        ended.until = now
        store.keep([ended])
        advance(by: .seconds(10))
        await store.saved()
        // Killed here: the last save was at 40 s, the one the early end's answer waited for.
        advance(by: .seconds(5))
        let after = try openAfterCrash()
        #expect(after.keptMaintenance.sorted { $0.id < $1.id } == [window, ended])
        #expect(after.keptMaintenance.last { $0.id == "api-2" }?.until == at(30))
        let report = try after.uptime(of: "p", TimelineQuery(span: .seconds(60), slots: 1, to: now))
        let tally = try #require(report.slots.first?.tally)
        #expect([tally.upMs, tally.downMs, tally.maintenanceMs] == [10_000, 10_000, 20_000])
        #expect(tally.loads == 2 && tally.failures == 1, "the mark is no load")
        #expect(report.day == 0.5, "time under maintenance is neither up nor down")
        #expect(try after.changes(of: "p", HistoryQuery()).entries.map(\.state) == [.error, .loaded])

        let deck = Deck("d", configuration: Deck.Configuration(now: { [clock] in clock.current.wall }), panels: [
            Panel("p", title: "P", heartbeat: .every(.seconds(3_600), grace: .seconds(60))),
            Panel("q", title: "Q", heartbeat: .every(.seconds(3_600), grace: .seconds(60))),
        ])
        await deck.restoreMaintenance(after.keptMaintenance)
        await deck.start()
        #expect(try await deck.panelState("p").maintenance == MaintenanceMark(id: "api-1", reason: "Disk swap", until: window.until))
        #expect(try await deck.panelState("q").maintenance == nil, "ended before the crash")
        await deck.stop()
        after.close()
    }

    /// Each action's signed entry is kept: read back newest first, of one panel or all, between two
    /// times, at most a limit, those waiting to be saved and those saved alike; a `kill -9` after a
    /// save keeps it; retention deletes it with the days' tallies.
    public func auditEntriesAreReadBackOutliveACrashAndExpireWithTheDays() throws {
        let store = try open()
        let retried = AuditEntry(at: now, actor: "alice", role: "operator", action: .retry, panel: "p")
        store.audit(retried)
        advance(by: .seconds(10))
        let started = AuditEntry(at: now, actor: "bob", role: "operator", action: .maintenanceStarted,
                                 subject: "Database upgrade", detail: "p, q")
        store.audit(started)
        #expect(try store.auditEntries(AuditQuery()) == [started, retried], "entries waiting to be saved are read")
        store.flush()
        advance(by: .seconds(10))
        let forced = AuditEntry(at: now, actor: "design-review", role: "designer", action: .debugState, panel: "q",
                                subject: "error", detail: "timeout")
        store.audit(forced)
        #expect(try store.auditEntries(AuditQuery()) == [forced, started, retried], "saved and waiting, each once")
        #expect(try store.auditEntries(AuditQuery(panel: "p")) == [retried])
        #expect(try store.auditEntries(AuditQuery(since: at(10), until: at(10))) == [started])
        #expect(try store.auditEntries(AuditQuery(since: at(5))) == [forced, started])
        #expect(try store.auditEntries(AuditQuery(limit: 2)) == [forced, started])
        store.flush()
        // Killed here, after the save.
        let after = try openAfterCrash()
        #expect(try after.auditEntries(AuditQuery()) == [forced, started, retried])
        #expect(try after.auditEntries(AuditQuery(panel: "q")).map(\.text) == ["Debug state error forced by design-review"])
        after.flush()
        advance(by: .seconds(2 * 365 * 86_400 + 3_600))
        after.flush()
        #expect(try after.auditEntries(AuditQuery()).isEmpty, "older than the days' tallies are kept")
        after.close()
    }

    /// The state document's forms: one the same as its part's newest is not kept again; a moment
    /// reads each part's newest at or before it, saved or waiting, and after a crash what was
    /// saved; the panels' changes are listed oldest first, in pages, each page with the oldest
    /// instant a moment is rebuilt for; past the changes' retention each part's newest older form
    /// is moved to the cutoff, the oldest instant kept, and listed as a change no more.
    public func momentsAreRebuiltFromFormsAndFoldedAtTheCutoff() throws {
        let store = try open()
        func form(_ summary: String, _ health: String) -> MomentForm {
            MomentForm(part: .panel("p"), at: now.millisecondsSince1970, json: #"{"id":"p","summary":"\#(summary)"}"#,
                       headline: MomentHeadline(title: "P", phase: "loaded", health: health, summary: summary))
        }
        #expect(throws: MomentError.beforeOldest(nil)) { try store.moment(at: now) }
        #expect(try store.deckChanges(HistoryQuery(), order: .oldestFirst).oldest == nil, "nothing kept yet")
        store.keep(form: form("one", "up"))
        #expect(try store.deckChanges(HistoryQuery(), order: .oldestFirst).oldest == at(0), "waiting to be saved")
        store.keep(form: MomentForm(part: .notice, at: now.millisecondsSince1970, json: "null"))
        advance(by: .seconds(10))
        store.keep(form: form("one", "up"))
        store.flush()
        advance(by: .seconds(10))
        store.keep(form: form("two", "down"))
        #expect(try store.moment(at: at(15)).forms[.panel("p")]?.json == form("one", "up").json, "saved at 0, the same at 10")
        #expect(try store.moment(at: at(20)).forms[.panel("p")]?.json == form("two", "down").json, "waiting")
        #expect(try store.moment(at: at(20)).forms[.notice]?.json == "null")
        #expect(throws: MomentError.beforeOldest(at(0))) { try store.moment(at: at(-1)) }
        #expect(throws: MomentError.future(now: now)) { try store.moment(at: at(21)) }
        let listed = try store.deckChanges(HistoryQuery(), order: .oldestFirst)
        #expect(listed.changes.map(\.to.summary) == ["one", "two"])
        #expect(listed.changes.map(\.from?.summary) == [nil, "one"])
        #expect(try store.deckChanges(HistoryQuery(), order: .newestFirst).changes.map(\.to.summary) == ["two", "one"],
                "newest first: the one waiting to be saved, then the saved one")
        #expect(listed.oldest == at(0))
        store.flush()
        // Killed here, after the save.
        let after = try openAfterCrash()
        #expect(try after.moment(at: at(15)).forms[.panel("p")]?.json == form("one", "up").json)
        #expect(try after.moment(at: at(15)).watched)
        let first = try after.deckChanges(HistoryQuery(limit: 1), order: .oldestFirst)
        #expect(first.changes.map(\.to.summary) == ["one"])
        let cursor = try #require(first.next.flatMap(HistoryCursor.init))
        #expect(try after.deckChanges(HistoryQuery(limit: 1, cursor: cursor), order: .oldestFirst) == DeckChangePage(changes: [listed.changes[1]], next: nil, oldest: at(0)))
        let newest = try after.deckChanges(HistoryQuery(limit: 1), order: .newestFirst)
        #expect(newest.changes.map(\.to.summary) == ["two"])
        let older = try #require(newest.next.flatMap(HistoryCursor.init))
        #expect(try after.deckChanges(HistoryQuery(limit: 1, cursor: older), order: .newestFirst)
                == DeckChangePage(changes: [listed.changes[0]], next: nil, oldest: at(0)), "the page before, read back")
        #expect(try after.deckChanges(HistoryQuery(to: at(15)), order: .newestFirst).changes.map(\.to.summary) == ["one"],
                "newest first up to an instant")
        after.flush()
        advance(by: .seconds(7 * 86_400 + 3_600))
        after.keep(form: form("three", "up"))
        after.flush()
        let cutoff = Date(millisecondsSince1970: now.millisecondsSince1970 - 7 * 86_400_000)
        #expect(try after.moment(at: cutoff).forms[.panel("p")]?.json == form("two", "down").json, "the checkpoint at the cutoff")
        #expect(try after.moment(at: cutoff).forms[.notice]?.json == "null")
        #expect(throws: MomentError.beforeOldest(cutoff)) { try after.moment(at: cutoff.addingTimeInterval(-0.001)) }
        #expect(try after.deckChanges(HistoryQuery(), order: .oldestFirst).changes.map(\.to.summary) == ["three"])
        #expect(try after.deckChanges(HistoryQuery(), order: .oldestFirst).oldest == cutoff, "the moments' oldest instant, not the changes'")
        after.close()
    }

    /// A panel gone from a deck followed anew (a restart or a reload of the deck file without it)
    /// is gone from the moments after; past the retention, from every moment kept.
    public func aPanelGoneFromTheDeckIsInNoLaterMoment() throws {
        let store = try open()
        func form(_ panel: String) -> MomentForm {
            MomentForm(part: .panel(panel), at: now.millisecondsSince1970, json: #"{"id":"\#(panel)"}"#,
                       headline: MomentHeadline(title: panel, phase: "loaded", health: "up", summary: nil))
        }
        store.keep(everyForm: [form("p"), form("q")], at: now)
        store.flush()
        advance(by: .seconds(10))
        store.keep(everyForm: [form("q")], at: now)
        #expect(try store.moment(at: at(5)).forms[.panel("p")]?.json == #"{"id":"p"}"#)
        #expect(try store.moment(at: at(10)).forms[.panel("p")]?.json == MomentForm.gone)
        #expect(try store.moment(at: at(10)).forms[.panel("q")]?.json == #"{"id":"q"}"#, "the same form is not kept again")
        store.flush()
        advance(by: .seconds(7 * 86_400 + 3_600))
        store.flush()
        #expect(try store.moment(at: now).forms[.panel("p")] == nil)
        #expect(try store.moment(at: now).forms[.panel("q")]?.json == #"{"id":"q"}"#)
        store.close()
    }

    /// A panel removed from the deck (a reload at 30 s) stops counting there: re-added at 90 s,
    /// it starts anew, watched since then, the minute it was away no data. A deck started later
    /// without it (the store opened at 120 s) ends it again at once, and deletes its `latest` row:
    /// the next open remembers nothing of it, while its changes stay for retention to delete.
    public func aRemovedPanelStopsCountingAndStartsAnewWhenAddedAgain() throws {
        do {
            let store = try open()
            advance(by: .seconds(10))
            store.record(change("q", .loaded(Info())))
            store.record(change("p", .loaded(Info())))
            store.flush()
            advance(by: .seconds(20))
            store.follow(panels: ["p"])
            store.flush()
            advance(by: .seconds(60))
            store.follow(panels: ["p", "q"])
            store.record(change("q", .loaded(Info())))
            advance(by: .seconds(30))
            let report = try store.uptime(of: "q", TimelineQuery(span: .seconds(120), slots: 2, to: now))
            #expect(report.slots.map(\.tally.upMs) == [20_000, 30_000], "up from 10 s to 30 s, and from 90 s on")
            #expect(report.current == UptimeReport.CurrentHealth(health: .up, since: at(90), watchedSince: at(90)))
            #expect(try store.uptime(of: "p", TimelineQuery(span: .seconds(120), slots: 2, to: now)).slots.map(\.tally.upMs)
                == [50_000, 60_000])
            store.close()
        }
        do {
            let store = try open()
            #expect(store.memories(of: ["p", "q"]).keys.sorted() == ["p", "q"])
            store.follow(panels: ["p"])
            store.flush()
            advance(by: .seconds(60))
            let report = try store.uptime(of: "q", TimelineQuery(span: .seconds(180), slots: 3, to: now))
            #expect(report.slots.map(\.tally.upMs) == [20_000, 30_000, 0], "counted no more from the open on")
            #expect(report.current == nil)
            store.close()
        }
        let reopened = try open()
        #expect(reopened.memories(of: ["p", "q"]).keys.sorted() == ["p"], "its latest row is gone")
        #expect(try reopened.changes(of: "q", HistoryQuery(limit: 10)).entries.count == 2, "its changes stay")
        let report = try reopened.uptime(of: "q", TimelineQuery(span: .seconds(180), slots: 3, to: now))
        #expect(report.slots.map(\.tally.upMs) == [20_000, 30_000, 0])
        let hours = try reopened.uptime(of: "q", TimelineQuery(span: .seconds(2 * 86_400), slots: 2, to: now))
        #expect(hours.slots.map(\.tally.upMs).reduce(0, +) == 50_000, "added back within its hour, it counted on in it")
        #expect(report.current == nil)
        reopened.close()
    }

    /// Each incident and each window is a part of its own: a change keeps that one item's form,
    /// and a moment reads each item's newest, saved or waiting and after a crash, so the lists are
    /// rebuilt whole at any instant. A history written before kept the lists whole; a deck
    /// followed anew marks those gone, so the moments after have the items alone. An item gone
    /// past the retention is in no moment kept, and no longer in memory either.
    public func incidentsAndWindowsAreKeptItemByItem() throws {
        let store = try open()
        let legacy = #"[{"id":"20261127-1","title":"Old"}]"#
        store.keep(form: MomentForm(part: .incidents, at: now.millisecondsSince1970, json: legacy))
        store.flush()
        advance(by: .seconds(10))
        let first = #"{"id":"20261127-1","openedAt":"2026-11-27T10:00:00.000Z","title":"Slow"}"#
        let second = #"{"id":"20261127-2","openedAt":"2026-11-27T10:00:10.000Z","title":"Down"}"#
        let window = #"{"id":"api-1","from":"2026-11-27T10:00:10.000Z"}"#
        store.keep(everyForm: [MomentForm(part: .incident("20261127-1"), at: now.millisecondsSince1970, json: first)], at: now)
        advance(by: .seconds(10))
        store.keep(form: MomentForm(part: .incident("20261127-2"), at: now.millisecondsSince1970, json: second))
        store.keep(form: MomentForm(part: .activeWindow("api-1@2026-11-27T10:00:10.000Z"), at: now.millisecondsSince1970, json: window))
        store.keep(form: MomentForm(part: .nextWindow("nightly@2026-11-28T03:00:00.000Z"), at: now.millisecondsSince1970, json: "{}"))
        store.flush()
        advance(by: .seconds(10))
        let resolved = #"{"id":"20261127-1","openedAt":"2026-11-27T10:00:00.000Z","title":"Slow","resolvedAt":"…"}"#
        store.keep(form: MomentForm(part: .incident("20261127-1"), at: now.millisecondsSince1970, json: resolved))
        store.keep(form: MomentForm(part: .activeWindow("api-1@2026-11-27T10:00:10.000Z"), at: now.millisecondsSince1970,
                                    json: MomentForm.gone))

        #expect(try store.moment(at: at(5)).forms[.incidents]?.json == legacy, "before: the whole list")
        #expect(try store.moment(at: at(5)).forms[.incident("20261127-1")] == nil)
        let followed = try store.moment(at: at(10)).forms
        #expect(followed[.incidents]?.json == MomentForm.gone, "the whole list is gone once a deck is followed anew")
        #expect(followed[.incident("20261127-1")]?.json == first)
        let both = try store.moment(at: at(25)).forms
        #expect(both[.incident("20261127-1")]?.json == first)
        #expect(both[.incident("20261127-2")]?.json == second)
        #expect(both[.activeWindow("api-1@2026-11-27T10:00:10.000Z")]?.json == window)
        #expect(both[.nextWindow("nightly@2026-11-28T03:00:00.000Z")]?.json == "{}")
        let waiting = try store.moment(at: at(30)).forms
        #expect(waiting[.incident("20261127-1")]?.json == resolved, "a change keeps that item alone")
        #expect(waiting[.incident("20261127-2")]?.json == second)
        #expect(waiting[.activeWindow("api-1@2026-11-27T10:00:10.000Z")]?.json == MomentForm.gone)
        store.flush()
        // Killed here, after the save.
        let after = try openAfterCrash()
        let saved = try after.moment(at: at(30)).forms
        #expect(saved[.incident("20261127-1")]?.json == resolved)
        #expect(saved[.incident("20261127-2")]?.json == second)
        #expect(saved[.activeWindow("api-1@2026-11-27T10:00:10.000Z")]?.json == MomentForm.gone)
        advance(by: .seconds(7 * 86_400 + 3_600))
        after.flush()
        let past = try after.moment(at: now).forms
        #expect(past[.activeWindow("api-1@2026-11-27T10:00:10.000Z")] == nil, "gone past the retention: in no moment")
        #expect(past[.incidents] == nil)
        #expect(past[.incident("20261127-2")]?.json == second, "the checkpoint at the cutoff")
        after.close()
    }

    /// An incident is kept at each update, so a deck continued after a `kill -9` takes it up as the
    /// last answer left it; one resolved more than 90 days ago is deleted, an open one never.
    public func anIncidentOutlivesACrashAtItsLastUpdate() async throws {
        let store = try open()
        let old = Incident(id: "20000101-1", title: "Move", panels: [], updates: [
            Incident.Update(at: now, status: .monitoring, message: "Moving", author: "bo"),
            Incident.Update(at: now.addingTimeInterval(1.5), status: .resolved, message: "Moved", author: "bo"),
        ])
        advance(by: .seconds(2))
        var open = Incident(id: "20000101-2", title: "Slow answers", panels: ["p", "q"], updates: [
            Incident.Update(at: now, status: .investigating, message: "Looking into it", author: "ana"),
        ])
        store.keep(incidents: [open, old])
        store.flush()
        #expect(store.keptIncidents == [open, old], "newest opened first")
        advance(by: .seconds(90 * 86_400))
        open.updates.append(Incident.Update(at: now, status: .identified, message: "Disk \"full\"\nline two", author: "bo"))
        let recent = Incident(id: "20000401-1", title: "Blip", panels: ["p"], updates: [
            Incident.Update(at: now, status: .investigating, message: "Errors", author: "ana"),
            Incident.Update(at: now, status: .resolved, message: "Gone", author: "ana"),
        ])
        store.keep(incidents: [open, recent])
        await store.saved()
        // Killed here: the answer to the update waited for its save.
        let after = try openAfterCrash()
        #expect(after.keptIncidents == [recent, open], "resolved more than 90 days ago: deleted; open however old: kept")
        #expect(after.keptIncidents.last?.updates.last?.at == at(2 + 90 * 86_400))

        let deck = Deck("d", configuration: Deck.Configuration(now: { [clock] in clock.current.wall }), panels: [
            Panel("p", title: "P", heartbeat: .every(.seconds(3_600), grace: .seconds(60))),
        ])
        await deck.restoreIncidents(after.keptIncidents)
        #expect(await deck.incidentList(limit: 10) == [recent, open])
        after.close()
    }

    /// A wall clock set forward (or a machine asleep) credits the jump to no one and shows it as
    /// not watched; set back, counting goes on at the new time, in tallies of their own.
    public func aWallClockThatJumpsCreditsOnlyTheTimeThatRan() throws {
        let store = try open()
        store.record(change("p", .loaded(Info())))
        advance(by: .seconds(30))
        store.flush()
        jumpWallClock(by: .seconds(3_600))
        advance(by: .seconds(10))
        store.flush()
        advance(by: .seconds(20))
        let forward = try store.uptime(of: "p", TimelineQuery(span: .seconds(3 * 3_600), slots: 3, to: now))
        #expect(forward.slots.map(\.tally.upMs) == [0, 40_000, 20_000], "the 10 s that ran are the first watch's")
        #expect(forward.unwatched == [UptimeReport.Stretch(from: at(40), to: at(3_640))])
        #expect(forward.current?.watchedSince == at(3_640))
        store.flush()
        jumpWallClock(by: .seconds(-3_600))
        advance(by: .seconds(10))
        store.flush()
        advance(by: .seconds(20))
        store.record(change("p", .error(PanelError(.timeout))))
        advance(by: .seconds(5))
        store.flush()
        #expect(now == at(95))
        let back = try store.uptime(of: "p", TimelineQuery(span: .seconds(180), slots: 1, to: now))
        #expect(back.slots.map(\.from) == [at(0)])
        #expect(back.slots[0].tally.upMs == 60_000, "40 s before the jumps and 20 s after the jump back")
        #expect(back.slots[0].tally.downMs == 5_000)
        #expect(back.slots[0].tally.failures == 1)
        #expect(back.unwatched == [UptimeReport.Stretch(from: at(40), to: at(70))])
        #expect(back.current == UptimeReport.CurrentHealth(health: .down, since: at(90), watchedSince: at(90)))
        let later = try store.uptime(of: "p", TimelineQuery(span: .seconds(3_600), slots: 1, to: at(3_700)))
        #expect(later.slots.first?.tally.upMs == 30_000, "the hour the clock jumped from keeps what it counted")
        store.close()
    }

    /// The wall clock set ten days forward for 5 s and back deletes nothing, saved or waiting:
    /// retention's clock moved on by the 6 s that ran. Every change is kept, a moment before the
    /// jump is rebuilt, and the minute the jump came in keeps what it counted.
    public func aWallClockSetForwardForAWhileAndBackDeletesNothing() throws {
        func expectKept(_ store: Store, _ read: String) throws {
            #expect(try store.changes(of: "p", HistoryQuery()).entries.map(\.at) == [at(20), at(0)], "\(read)")
            #expect(try store.moment(at: at(15)).forms[.panel("p")]?.json == #"{"id":"p"}"#, "\(read)")
            let minute = try store.uptime(of: "p", TimelineQuery(span: .seconds(60), slots: 1, to: now))
            #expect(minute.slots.map { [$0.tally.upMs, $0.tally.downMs] } == [[20_000, 11_000 + 24_000]],
                    "up to 20 s and down to 31 s in the first watch, down from 36 s in the third: \(read)")
            #expect(minute.unwatched == [UptimeReport.Stretch(from: at(31), to: at(36))], "\(read)")
        }
        try readBack(expectKept) { store in
            store.record(change("p", .loaded(Info(summary: "one"))))
            store.keep(form: MomentForm(part: .panel("p"), at: now.millisecondsSince1970, json: #"{"id":"p"}"#))
            advance(by: .seconds(20))
            store.record(change("p", .error(PanelError(.timeout))))
            store.flush()
            advance(by: .seconds(10))
            store.flush()
            jumpWallClock(by: .seconds(10 * 86_400))
            for _ in 1...5 {
                advance(by: .seconds(1))
                store.flush()
            }
            jumpWallClock(by: .seconds(-10 * 86_400))
            advance(by: .seconds(1))
            store.flush()
            advance(by: .seconds(24))
            #expect(now == at(60))
        }
    }

    /// The wall clock set back eight days, more than changes and minutes are kept, and an hour and
    /// a half run: retention, due in each hour of its clock, deletes by the wall clock behind it,
    /// so the change and the minutes written since are kept.
    public func aWallClockSetBackDeletesNothingWrittenSince() throws {
        let store = try open()
        store.flush()
        jumpWallClock(by: .seconds(-8 * 86_400))
        store.record(change("p", .loaded(Info(summary: "after"))))
        for _ in 1...90 {
            advance(by: .seconds(60))
            store.flush()
        }
        #expect(try store.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["after"])
        let hour = try store.uptime(of: "p", TimelineQuery(span: .seconds(3_600), slots: 60, to: now))
        #expect(hour.slots.map(\.tally.upMs) == Array(repeating: 60_000, count: 60))
        store.close()
    }

    /// The wall clock set back a minute, then an hour: the watch after each jump counts nothing
    /// until the wall clock passes what the watches before it counted, so no minute or hour,
    /// summed across watches, holds more time than it spans, and the ratios count each instant once.
    public func aWallClockSetBackCountsNoInstantTwice() throws {
        func expectCountedOnce(_ store: Store, _ read: String) throws {
            let hours = try store.uptime(of: "p", TimelineQuery(span: .seconds(3 * 3_600), slots: 3, to: now))
            #expect(hours.slots.map { [$0.tally.upMs, $0.tally.downMs] }
                == [[100_000, 3_500_000], [0, 3_600_000], [60_000, 240_000]],
                "the hour after the second jump back credits only from 7,380 s, where the second watch ended: \(read)")
            #expect(hours.day == 160.0 / 7_500.0, "\(read)")
            #expect(hours.unwatched.isEmpty, "\(read)")
            let minutes = try store.uptime(of: "p", TimelineQuery(span: .seconds(180), slots: 3, to: now))
            #expect(minutes.slots.map { [$0.tally.upMs, $0.tally.downMs] } == [[0, 60_000], [0, 60_000], [60_000, 0]],
                    "\(read)")
        }
        try readBack(expectCountedOnce) { store in
            store.record(change("p", .loaded(Info())))
            advance(by: .seconds(90))
            store.flush()
            jumpWallClock(by: .seconds(-60))
            advance(by: .seconds(10))
            store.record(change("p", .error(PanelError(.timeout))))
            store.flush()
            advance(by: .seconds(80))
            store.flush()
            #expect(now == at(120))
            let minutes = try store.uptime(of: "p", TimelineQuery(span: .seconds(120), slots: 2, to: now))
            #expect(minutes.slots.map { [$0.tally.upMs, $0.tally.downMs] } == [[60_000, 0], [40_000, 20_000]],
                    "up to 100 s in the first watch; down from 40 s, counted from 100 s on")
            #expect(minutes.unwatched.isEmpty)
            advance(by: .seconds(2 * 3_600))
            store.flush()
            jumpWallClock(by: .seconds(-3_600))
            advance(by: .seconds(60))
            store.flush()
            advance(by: .seconds(3_660))
            store.record(change("p", .loaded(Info())))
            advance(by: .seconds(60))
            #expect(now == at(7_500))
        }
    }

    /// The wall clock set three days forward for good after half an hour counted, so the store
    /// opened then deletes those minutes, and then set back into that half hour: the 24-hour
    /// timeline sums its slots from hours, older than what retention kept of the minutes, and the
    /// hour holding now holds the time counted after it. The timeline ends at that hour's start
    /// until the wall clock has passed what was counted, then holds the half hour and the time since.
    public func aTimelineSummedFromHoursEndsAtAnHourHoldingTimeCountedAfterNow() throws {
        let first = try open()
        first.record(change("p", .loaded(Info())))
        advance(by: .seconds(1_800))
        first.close()
        jumpWallClock(by: .seconds(3 * 86_400))
        let store = try open()
        func day() throws -> UptimeReport {
            try store.uptime(of: "p", TimelineQuery(span: .seconds(86_400), slots: 24, to: now))
        }
        advance(by: .seconds(60))
        store.flush()
        jumpWallClock(by: .seconds(-3 * 86_400 - 960))
        advance(by: .seconds(10))
        store.flush()
        #expect(now == at(910))
        let early = try day()
        #expect(early.slots.last?.to == at(0), "the hour from 0 holds the half hour counted first")
        #expect(early.slots.allSatisfy { $0.state == "none" })
        advance(by: .seconds(1_000))
        store.flush()
        let passed = try day()
        #expect(passed.slots.last.map { [$0.from, $0.to] } == [at(0), at(1_910)])
        #expect(passed.slots.last?.tally.upMs == 1_910_000, "the first half hour, and the 110 s since")
        store.close()
    }

    /// Runs `scenario` on a store opened now, then `check` on what it reads: waiting to be saved,
    /// saved, and after a reopen (each named in its second argument).
    private func readBack(_ check: (Store, String) throws -> Void, after scenario: (Store) throws -> Void) throws {
        do {
            let store = try open()
            try scenario(store)
            try check(store, "waiting")
            store.flush()
            try check(store, "saved")
            store.close()
        }
        let reopened = try open()
        try check(reopened, "reopened")
        reopened.close()
    }

    /// A page's cursor means the same entry before its change is saved and after: paging on
    /// across a save neither repeats nor skips one, changes at the same time included.
    public func aPageCursorHoldsAcrossASave() throws {
        let store = try open()
        for index in 0..<4 { store.record(change("p", .loaded(Info(summary: "saved \(index)")))) }
        store.flush()
        for index in 0..<4 { store.record(change("p", .loaded(Info(summary: "waiting \(index)")))) }
        advance(by: .seconds(1))
        store.record(change("p", .loaded(Info(summary: "newest"))))
        let first = try store.changes(of: "p", HistoryQuery(limit: 3))
        #expect(first.entries.map(\.summary) == ["newest", "waiting 3", "waiting 2"])
        store.flush()
        let cursor = try #require(first.next.flatMap(HistoryCursor.init))
        let second = try store.changes(of: "p", HistoryQuery(limit: 3, cursor: cursor))
        #expect(second.entries.map(\.summary) == ["waiting 1", "waiting 0", "saved 3"])
        store.record(change("p", .loaded(Info(summary: "after"))))
        let third = try store.changes(of: "p", HistoryQuery(limit: 5, cursor: HistoryCursor(try #require(second.next))))
        #expect(third.entries.map(\.summary) == ["saved 2", "saved 1", "saved 0"])
        #expect(third.next == nil)
        store.close()
    }

    /// A `to` in the past counts no time after it, a slot is never empty of time, and a window
    /// with no data has no ratios.
    public func aTimelineEndingInThePastHoldsNoTimeAfterIt() throws {
        let store = try open()
        advance(by: .seconds(60))
        store.record(change("p", .loaded(Info())))
        advance(by: .seconds(45))
        store.record(change("p", .loaded(Info())))
        advance(by: .seconds(30))
        store.flush()
        let before = try store.uptime(of: "p", TimelineQuery(span: .seconds(180), slots: 3, to: at(90)))
        #expect(before.slots.map(\.to) == [at(-60), at(0), at(60)], "up to the minute holding 90 s, which cannot be split")
        #expect(before.slots.allSatisfy { $0.state == "none" })
        #expect([before.day, before.week, before.month] == [nil, nil, nil])
        let aligned = try store.uptime(of: "p", TimelineQuery(span: .seconds(180), slots: 3, to: at(120)))
        #expect(aligned.slots.map(\.from) == [at(-60), at(0), at(60)])
        #expect(aligned.slots.map(\.to) == [at(0), at(60), at(120)])
        #expect([aligned.slots[2].tally.upMs, Int64(aligned.slots[2].tally.loads)] == [60_000, 2])
        #expect(aligned.day == nil, "the 24 h ratio is of whole hours, and the hour holding `to` cannot be split")
        let epoch = try store.uptime(of: "p", TimelineQuery(span: TimelineQuery.longestSpan, slots: 1,
                                                            to: Date(millisecondsSince1970: 0)))
        let slot = try #require(epoch.slots.first)
        #expect(slot.from < slot.to)
        #expect(slot.to == Date(millisecondsSince1970: 0))
        #expect(slot.state == "none")
        #expect([epoch.day, epoch.week, epoch.month] == [nil, nil, nil])
        store.close()
    }

    /// Retention deletes changes by their time, whatever order they came in: one stamped ahead
    /// (by a clock set wrong) holds up the deletion of none after it, and stays until its own time
    /// is past the retention.
    public func retentionDeletesChangesByTheirTimeWhateverOrderTheyCameIn() throws {
        let store = try open()
        store.record(change("p", .loaded(Info(summary: "old"))))
        var ahead = change("p", .loaded(Info(summary: "ahead")))
        ahead.at = now.addingTimeInterval(30 * 86_400)
        store.record(ahead)
        advance(by: .seconds(10))
        store.record(change("p", .loaded(Info(summary: "after"))))
        store.flush()
        advance(by: .seconds(7 * 86_400 + 3_600))
        store.record(change("p", .loaded(Info(summary: "new"))))
        store.flush()
        #expect(try store.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["ahead", "new"],
                "older than the retention: deleted though kept after the change stamped ahead")
        store.close()
    }

    /// A timeline ending in the past says the health of then: that of the panel's newest form at or
    /// before `to` that changed its health (saved or waiting to be), since that form; none before
    /// its first form. Past the retention, each part's checkpoint at the cutoff is its first form,
    /// so the health it holds begins there, though the form that began it is gone and the
    /// checkpoint changed only the summary; before the cutoff no health is held.
    public func aTimelineEndingInThePastSaysTheHealthOfThen() throws {
        let store = try open()
        func form(_ summary: String, _ health: String) -> MomentForm {
            MomentForm(part: .panel("p"), at: now.millisecondsSince1970, json: #"{"id":"p","summary":"\#(summary)"}"#,
                       headline: MomentHeadline(title: "P", phase: "loaded", health: health, summary: summary))
        }
        func current(_ seconds: Double) throws -> UptimeReport.CurrentHealth? {
            try store.uptime(of: "p", TimelineQuery(span: .seconds(180), slots: 3, to: at(seconds))).current
        }
        func health(_ health: Health, since seconds: Double) -> UptimeReport.CurrentHealth {
            UptimeReport.CurrentHealth(health: health, since: at(seconds), watchedSince: at(seconds))
        }
        store.keep(form: form("one", "up"))
        advance(by: .seconds(10))
        store.keep(form: form("two", "up"))
        advance(by: .seconds(10))
        store.keep(form: form("three", "down"))
        store.flush()
        advance(by: .seconds(10))
        store.keep(form: form("four", "up"))
        advance(by: .seconds(10))
        #expect(try current(-1) == nil, "before its first form")
        #expect(try current(15) == health(.up, since: 0), "a form of the same health does not begin it")
        #expect(try current(20) == health(.down, since: 20), "`to` holds the form kept at it")
        #expect(try current(29.999) == health(.down, since: 20))
        #expect(try current(35) == health(.up, since: 30), "waiting to be saved")
        store.keep(form: form("five", "up"))
        store.flush()
        advance(by: .seconds(7 * 86_400 + 3_600))
        store.keep(form: form("six", "down"))
        store.flush()
        #expect(try current(3_700) == health(.up, since: 3_640), "the cutoff, 7 days before now, holds the checkpoint")
        #expect(try current(3_639) == nil, "before the cutoff: no longer held")
        store.close()
    }
}

