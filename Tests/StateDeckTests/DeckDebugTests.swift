import Clocks
import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct DeckDebugTests {
    @Test func forcedStatesPinThePanel() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one }.placeholder(.two) }
        let loading = try await test.deck.debug(.loading, panel: "p")
        #expect(loading.isInitialLoading && loading.debugPinned)
        #expect(try await test.deck.debug(.loaded(nil), panel: "p").latestValidInfo == .two)
        #expect(try await test.deck.debug(.loaded(.one), panel: "p").latestValidInfo == .one)
        let failed = try await test.deck.debug(.error(.outOfSpace), panel: "p")
        #expect(failed.latestValidError?.title == "Out of space")
        #expect(try await test.deck.debug(.error(nil), panel: "p").latestValidError?.kind == .unknown)
        #expect(try await test.deck.debug(.modifyingIds(["x"]), panel: "p").modifyingIds == ["x"])
        #expect(try await test.deck.debug(.modifyingIds([]), panel: "p").modifyingIds == nil)
        let reset = try await test.deck.debug(.reset, panel: "p")
        #expect(reset.history.isEmpty && reset.phase == .initial && reset.latestError == nil && reset.debugPinned)
    }

    @Test func aPanelWithoutPlaceholderShowsSampleInfo() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        #expect(try await test.deck.debug(.loaded(nil), panel: "p").latestValidInfo == .sample)
    }

    @Test func forcedResultsToastLikeRealOnes() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await test.deck.debug(.error(.timeout), panel: "p")
        try await test.deck.debug(.loaded(nil), panel: "p")
        #expect(test.toasts.map(\.message) == ["P: Timed out", "P is back"])
    }

    @Test func pinningDiscardsTheLoadInFlightAndPausesTheSchedule() async throws {
        let loader = ScriptedLoader(.success(.two))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() }.refresh(every: .seconds(1)) }
        await test.deck.start()
        await test.until { $0.isLoading }
        try await test.deck.debug(.loaded(.one), panel: "p")
        await test.advance(to: .seconds(10))
        await test.settle()
        let state = try await test.deck.panelState("p")
        #expect(state.latestValidInfo == .one)
        #expect(loader.callCount == 1)
    }

    @Test func liveUnpinsAndLoads() async throws {
        let loader = ScriptedLoader(.success(.two))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() }.refresh(every: .seconds(1)) }
        await test.deck.start()
        try await test.deck.debug(.error(.timeout), panel: "p")
        let live = try await test.deck.debug(.live, panel: "p")
        #expect(!live.debugPinned && live.isLoading, "back to live shows its load at once")
        await test.advance(to: .milliseconds(500))
        let loaded = await test.until { $0.phase == .loaded }
        #expect(loaded?.latestValidInfo == .two)
        let calls = loader.callCount
        await test.advance(to: .milliseconds(1500))
        await test.eventually { loader.callCount == calls + 1 ? true : nil }
    }
}
