import Clocks
import Locking
import Testing
@testable import StateDeck

/// A debug state pins a panel: pressing a button on the forced card runs that button's real flow
/// and releases the pin, and nothing but a debug command or a release replaces the forced state.
@Suite(.stopsDecks) struct DeckPinTests {
    static func panel(_ loader: ScriptedLoader) -> Panel {
        Panel("p", title: "P") { try loader.load() }
            .minimumLoadingTime(.zero)
            .retry(.none)
            .refresh(every: .seconds(60))
    }

    @Test func aRetryOfAPinnedPanelReleasesItAndLoads() async throws {
        let loader = ScriptedLoader(.success(.two))
        let test = await TestDeck { Self.panel(loader) }
        await test.deck.start()
        await test.until { $0.phase == .loaded }
        try await test.deck.debug(.error(.timeout), panel: "p")

        let result = try await test.deck.retry(panel: "p")

        #expect(!result.coalesced)
        // The first state published after the pin (the load may end at once: no minimum time).
        let released = try #require(test.states().drop { !$0.debugPinned }.first { !$0.debugPinned })
        #expect(released.isLoading)
        let loaded = await test.until { $0.phase == .loaded && !$0.isLoading }
        #expect(loaded?.latestValidInfo == .two)
        #expect(loader.callCount == 2)
        #expect(test.toasts.last?.message == "P is back", "a manual retry after an error card toasts the recovery")
    }

    @Test func tryAgainOnAForcedCardRunsTheRealRetry() async throws {
        let loader = ScriptedLoader(.success(.two))
        let test = await TestDeck { Self.panel(loader) }
        try await test.deck.debug(.error(.serverError), panel: "p")

        try await test.deck.recover(panel: "p", option: RecoveryOption.retryId)

        #expect(try await test.deck.panelState("p").debugPinned == false)
        let loaded = await test.until { $0.phase == .loaded }
        #expect(loaded?.latestValidInfo == .two)
        #expect(loader.callCount == 1)
    }

    @Test func aRecoveryOptionOnAForcedCardRunsItsHandlerAndReleasesThePin() async throws {
        let ran = Locked(0)
        let loader = ScriptedLoader(.success(.two))
        let test = await TestDeck {
            Self.panel(loader).recovery(.custom("restart", "Restart") { ran.withLock { $0 += 1 } })
        }
        try await test.deck.debug(.error(.unreachable), panel: "p")

        try await test.deck.recover(panel: "p", option: "restart")

        #expect(try await test.deck.panelState("p").debugPinned == false)
        await test.until { $0.phase == .loaded }
        #expect(ran.current == 1)
        #expect(test.toasts.map(\.message).contains("Restart: done"))
    }

    @Test func dismissingAForcedCardReleasesThePinAndResumesTheSchedule() async throws {
        let loader = ScriptedLoader(.success(.one), .success(.two))
        let test = await TestDeck { Self.panel(loader) }
        await test.deck.start()
        await test.until { $0.phase == .loaded }
        try await test.deck.debug(.error(.timeout), panel: "p")

        try await test.deck.recover(panel: "p", option: RecoveryOption.dismissId)

        let dismissed = try await test.deck.panelState("p")
        #expect(!dismissed.debugPinned && dismissed.stale && dismissed.latestValidInfo == .one)
        await test.advance(to: .seconds(60))
        let refreshed = await test.until { $0.latestValidInfo == .two }
        #expect(refreshed?.stale == false)
    }

    @Test func aPushWaitsWhilePinnedAndIsRecordedOnRelease() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one }.minimumLoadingTime(.zero) }
        try await test.deck.debug(.error(.timeout), panel: "p")

        try await test.deck.push(.loaded(.two), panel: "p")

        let pinned = try await test.deck.panelState("p")
        #expect(pinned.debugPinned && pinned.latestValidError?.kind == .timeout && pinned.latestValidInfo == nil)
        let released = try await test.deck.debug(.live, panel: "p")
        #expect(!released.debugPinned)
        #expect(released.latestInfo == .two, "the pushed info was recorded when the pin was released")
    }

    @Test func anItemActionsInfoWaitsWhilePinned() async throws {
        let jobs = Info(items: [Info.Item(id: "a", title: "A"), Info.Item(id: "b", title: "B")])
        let remaining = Info(items: [Info.Item(id: "b", title: "B")])
        let test = await TestDeck {
            Panel("p", title: "P") { jobs }.itemAction("remove", "Remove") { _ -> Info? in remaining }
        }
        try await test.deck.debug(.loaded(jobs), panel: "p")

        try await test.deck.perform(action: "remove", item: "a", panel: "p")
        await test.untilToasts(1)

        let pinned = try await test.deck.panelState("p")
        #expect(pinned.debugPinned)
        #expect(pinned.latestValidInfo?.items?.map(\.id) == ["a", "b"], "the forced info stays")
        #expect(pinned.modifyingIds == nil)
        #expect(test.toasts.last?.message == "Remove A: done")
        let released = try await test.deck.debug(.live, panel: "p")
        #expect(released.latestInfo?.items?.map(\.id) == ["b"])
    }
}
