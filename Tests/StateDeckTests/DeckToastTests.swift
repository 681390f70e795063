import Clocks
import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct DeckToastTests {
    @Test func aFirstErrorToastsAndTheSnapshotKeepsItUntilItExpires() async {
        let test = await TestDeck { Panel("p", title: "P") { throw PanelError.missing } }
        await test.deck.start()
        await test.advance(to: .milliseconds(500))
        let toast = await test.untilToasts(1)
        #expect(toast == Toast(
            id: "toast-1", style: .error, message: "P: Not found", panelId: "p", durationMs: 4000, position: .top,
            action: nil
        ), "a missing resource offers no primary action to put on the toast")
        await test.advance(to: .milliseconds(4499))
        await test.settle()
        #expect(await test.deck.snapshot().toast == toast)
        await test.advance(to: .milliseconds(4500))
        await test.eventually { await test.deck.snapshot().toast == nil ? true : nil }
    }

    @Test func eachNewToastReArmsTheExpiry() async throws {
        let test = await TestDeck {
            Panel("p", title: "P") { throw PanelError.missing }
            Panel("q", title: "Q") { .one }
        }
        try await test.deck.push(.error(.missing), panel: "p")
        await test.advance(to: .seconds(3))
        try await test.deck.push(.error(.missing), panel: "q")
        await test.advance(to: .seconds(6))
        await test.settle()
        #expect(await test.deck.snapshot().toast?.panelId == "q")
        await test.advance(to: .seconds(7))
        await test.eventually { await test.deck.snapshot().toast == nil ? true : nil }
    }

    @Test func recoveringReplacesTheFailureToastInPlace() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await test.deck.push(.error(.server), panel: "p")
        try await test.deck.push(.loaded(.one), panel: "p")
        #expect(test.toasts.map(\.id) == ["toast-1", "toast-1"])
        #expect(test.toasts.map(\.message) == ["P: Unexpected server issue", "P is back"])
        #expect(test.toasts.map(\.style) == [.error, .success])
    }

    @Test func aNewerToastOfAnotherPanelReplacesTheCurrentOne() async throws {
        let test = await TestDeck {
            Panel("p", title: "P") { .one }
            Panel("q", title: "Q") { .one }
        }
        try await test.deck.push(.error(.server), panel: "p")
        try await test.deck.push(.error(.server), panel: "q")
        #expect(test.toasts.map(\.id) == ["toast-1", "toast-2"])
        #expect(await test.deck.snapshot().toast?.panelId == "q")
    }

    @Test func aDeckDeclaresHowLongToastsStayAndWhere() async throws {
        let configuration = Deck.Configuration(clock: TestClock<Duration>(), toastDuration: .seconds(7), toastPosition: .bottom)
        let deck = Deck("D", configuration: configuration) { Panel("p", title: "P") { .one } }
        try await deck.push(.error(.server), panel: "p")
        let toast = try #require(await deck.snapshot().toast)
        #expect(toast.durationMs == 7_000 && toast.position == .bottom)
        #expect(deck.configuration.toastDuration == .seconds(7) && deck.configuration.toastPosition == .bottom)
        await deck.stop()
    }
}
