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
/// stores with `open` (saving only when told, on the contract's wall clock) and moves the clock.
public struct HistoryStoreContract<Store: FlushingHistoryStore>: Sendable {
    /// A day boundary, so that minutes, hours and days start with the scenario.
    public static var start: Date { Date(millisecondsSince1970: 20_000 * 86_400_000) }
    public let clock = Locked(HistoryStoreContract.start)
    private let opener: @Sendable (_ now: @escaping @Sendable () -> Date) throws -> Store

    /// `open(now)` opens the store under test with `now` as its wall clock and its writer off.
    public init(open: @escaping @Sendable (_ now: @escaping @Sendable () -> Date) throws -> Store) {
        opener = open
    }

    public func open() throws -> Store {
        try opener { [clock] in clock.current }
    }

    public var now: Date { clock.current }

    public func advance(by duration: Duration) {
        clock.withLock { $0 = $0.addingTimeInterval(duration / .seconds(1)) }
    }

    public func change(_ panel: String, _ state: ViewState, cause: PanelChange.Cause = .load(.milliseconds(25))) -> PanelChange {
        PanelChange(panel: panel, at: now, state: state, cause: cause)
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
            store.record(change("down", .loading, cause: .view))
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
            #expect(store.takeUndelivered() == [failure, recovery])
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
}
