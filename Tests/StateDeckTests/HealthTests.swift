import Clocks
import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct HealthTests {
    static let load = PanelChange.Cause.load(.milliseconds(5))

    /// Results decide; a view change (loading, a dismissed card) and a forced state leave a known
    /// health as it was.
    @Test(arguments: Health.allCases) func theRuleOverEveryChange(before: Health) {
        let info = ViewState.loaded(.one), error = ViewState.error(.server)
        #expect(before.after(info, cause: Self.load) == .up)
        #expect(before.after(info, cause: .push) == .up)
        #expect(before.after(error, cause: Self.load) == .down)
        #expect(before.after(error, cause: .push) == .down)
        for state in [ViewState.initial, .loading, info, error] {
            #expect(before.after(state, cause: .debug) == before, "a forced state says nothing of the source")
        }
        #expect(before.after(.loading, cause: .view) == (before == .unknown ? .loading : before))
        #expect(before.after(info, cause: .view) == before, "the stale info shown after a dismissed card")
        #expect(before.after(.initial, cause: .view) == before, "a card dismissed with no info before it")
    }

    @Test func theStateAndEachChangeCarryTheHealthThroughEveryStateShown() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .two }.recovery(.tryAgain, .cancel).retry(.none) }
        let changes = { test.events.all.compactMap { if case .change(let change) = $0 { change.health } else { nil } } }
        #expect(try await test.deck.panelState("p").health == .unknown)

        try await test.deck.retry(panel: "p")
        let initialLoading = try #require(await test.until { $0.isInitialLoading })
        #expect(initialLoading.health == .loading)
        await test.advance(to: .milliseconds(500))
        #expect(await test.until { $0.phase == .loaded }?.health == .up)

        try await test.deck.push(.error(.server), panel: "p")
        #expect(try await test.deck.panelState("p").health == .down)
        try await test.deck.recover(panel: "p", option: RecoveryOption.dismissId)
        let stale = try await test.deck.panelState("p")
        #expect(stale.stale && stale.latestValidInfo == .two)
        #expect(stale.health == .down, "a dismissed card hides the error; the source still fails")
        #expect(changes().last == .down)

        try await test.deck.push(.loading, panel: "p")
        #expect(try await test.deck.panelState("p").health == .down, "reloading leaves the health as it was")
        try await test.deck.push(.loaded(.one), panel: "p")
        let fresh = try await test.deck.panelState("p")
        #expect(!fresh.stale && fresh.health == .up)

        _ = try await test.deck.debug(.error(nil), panel: "p")
        let forced = try await test.deck.panelState("p")
        #expect(forced.debugPinned && forced.latestValidError != nil)
        #expect(forced.health == .down, "the page previews the forced state")
        #expect(changes().last == .up, "a forced error says nothing of the source")
        _ = try await test.deck.debug(.reset, panel: "p")
        #expect(try await test.deck.panelState("p").health == .unknown)
        #expect(changes().last == .up)
        _ = try await test.deck.debug(.live, panel: "p")
        #expect(try await test.deck.panelState("p").health == .up, "released, the real health again")
    }

    @Test func aCardDismissedWithNoInfoBeforeItLeavesThePanelDown() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .two }.recovery(.tryAgain, .cancel).retry(.none) }
        try await test.deck.push(.error(.server), panel: "p")
        try await test.deck.recover(panel: "p", option: RecoveryOption.dismissId)
        let dismissed = try await test.deck.panelState("p")
        #expect(dismissed.phase == .initial && dismissed.latestError == nil)
        #expect(dismissed.health == .down)
    }
}
