import Clocks
import Testing
import TestSupport
@testable import StateDeck

@Suite(.stopsDecks) struct DeckItemActionTests {
    static let jobs = Info(items: [Info.Item(id: "a", title: "Job A"), Info.Item(id: "b", title: "Job B")])
    static let jobB = Info(items: [Info.Item(id: "b", title: "Job B")])

    @Test func itemsOfferThePanelsActions() async throws {
        let test = await TestDeck {
            Panel("p", title: "P") { Self.jobs }.itemAction("remove", "Remove", role: .destructive) { _ in }
        }
        try await test.deck.push(.loaded(Self.jobs), panel: "p")
        let items = try await test.deck.panelState("p").latestValidInfo?.items
        #expect(items?.map(\.actions) == Array(repeating: [Info.Action(id: "remove", label: "Remove", role: .destructive)], count: 2))
    }

    @Test func anItemIsModifyingWhileItsActionRunsThenShowsTheReturnedInfo() async throws {
        let clock = TestClock<Duration>()
        let test = await TestDeck(clock: clock) {
            Panel("p", title: "P") { Self.jobs }.itemAction("remove", "Remove") { _ -> Info? in
                try await clock.sleep(untilOffset: .seconds(1))
                return Self.jobB
            }
        }
        try await test.deck.push(.loaded(Self.jobs), panel: "p")
        try await test.deck.perform(action: "remove", item: "a", panel: "p")
        #expect(try await test.deck.panelState("p").modifyingIds == ["a"])
        await test.advance(to: .seconds(1))
        let done = await test.until { $0.modifyingIds == nil }
        #expect(done?.latestValidInfo?.items?.map(\.id) == ["b"])
        #expect(test.toasts.last?.message == "Remove Job A: done")
        #expect(test.states().filter { $0.modifyingIds == ["a"] }.count == 1, "published once while running")
    }

    @Test func anActionReturningNothingReloadsThePanel() async throws {
        let loader = ScriptedLoader(.success(Self.jobB))
        let test = await TestDeck {
            Panel("p", title: "P") { try loader.load() }.itemAction("remove", "Remove", message: "Removed") { _ in }
        }
        try await test.deck.push(.loaded(Self.jobs), panel: "p")
        try await test.deck.perform(action: "remove", item: "a", panel: "p")
        await test.until { $0.isLoading && $0.modifyingIds == nil }
        #expect(test.toasts.last?.message == "Removed")
        await test.advance(to: .milliseconds(500))
        let reloaded = await test.until { $0.phase == .loaded }
        #expect(reloaded?.latestValidInfo?.items?.map(\.id) == ["b"])
        #expect(loader.callCount == 1)
    }

    @Test func anActionEndingAfterStopLoadsNothing() async throws {
        let gate = Gate()
        defer { gate.open() }
        let loader = ScriptedLoader(.success(Self.jobB))
        let test = await TestDeck {
            Panel("p", title: "P") { try loader.load() }.itemAction("remove", "Remove", message: "Removed") { _ in
                await gate.wait()
            }
        }
        try await test.deck.push(.loaded(Self.jobs), panel: "p")
        try await test.deck.perform(action: "remove", item: "a", panel: "p")
        await test.deck.stop()
        gate.open()
        // The handler ignores cancellation, so it ends and toasts, but the stopped deck (replaced
        // by a reloaded deck file, say) runs no load for it.
        #expect(await test.untilToasts(1)?.message == "Removed")
        #expect(await test.until { $0.modifyingIds == nil }?.isLoading == false)
        #expect(loader.callCount == 0)
    }

    @Test func aFailedActionToastsAndKeepsTheInfo() async throws {
        let test = await TestDeck {
            Panel("p", title: "P") { Self.jobs }.itemAction("restart", "Restart") { _ in throw PanelError(.commandFailed) }
        }
        try await test.deck.push(.loaded(Self.jobs), panel: "p")
        try await test.deck.perform(action: "restart", item: "b", panel: "p")
        let toast = await test.untilToasts(1)
        #expect(toast?.message == "Restart Job B failed: Command failed")
        let state = await test.until { $0.modifyingIds == nil }
        #expect(state?.latestValidInfo?.items?.count == 2)
    }

    @Test func unknownItemsAndActionsAreRefused() async throws {
        let test = await TestDeck {
            Panel("p", title: "P") { Self.jobs }.itemAction("remove", "Remove") { _ in }
        }
        try await test.deck.push(.loaded(Self.jobs), panel: "p")
        await #expect(throws: DeckError.unknownItem(panel: "p", item: "z")) {
            try await test.deck.perform(action: "remove", item: "z", panel: "p")
        }
        await #expect(throws: DeckError.unknownAction(panel: "p", item: "a", action: "explode")) {
            try await test.deck.perform(action: "explode", item: "a", panel: "p")
        }
    }

    @Test func anItemListingItsOwnActionsOffersOnlyThose() async throws {
        let info = Info(items: [Info.Item(id: "a", title: "A", actions: [])])
        let test = await TestDeck {
            Panel("p", title: "P") { info }.itemAction("remove", "Remove") { _ in }
        }
        try await test.deck.push(.loaded(info), panel: "p")
        await #expect(throws: DeckError.unknownAction(panel: "p", item: "a", action: "remove")) {
            try await test.deck.perform(action: "remove", item: "a", panel: "p")
        }
    }

    @Test func oneActionPerItemAtATime() async throws {
        let gate = Gate()
        defer { gate.open() }
        let test = await TestDeck {
            Panel("p", title: "P") { Self.jobs }.itemAction("remove", "Remove") { _ in await gate.wait() }
        }
        try await test.deck.push(.loaded(Self.jobs), panel: "p")
        try await test.deck.perform(action: "remove", item: "a", panel: "p")
        try await test.deck.perform(action: "remove", item: "b", panel: "p")
        #expect(try await test.deck.panelState("p").modifyingIds == ["a", "b"])
        await #expect(throws: DeckError.self) { try await test.deck.perform(action: "remove", item: "a", panel: "p") }
    }
}
