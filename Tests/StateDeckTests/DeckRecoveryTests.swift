import Clocks
import Testing
import TestSupport
@testable import StateDeck

@Suite(.stopsDecks) struct DeckRecoveryTests {
    /// A panel showing an error card from a pushed error.
    static func failingDeck(
        clock: TestClock<Duration> = TestClock(),
        _ options: RecoveryOption...,
        loader: @escaping Panel.Loader = { .two }
    ) async throws -> TestDeck {
        let test = await TestDeck(clock: clock) {
            Panel("p", title: "P", load: loader).recovery(.tryAgain, .cancel).retry(.none)
        }
        try await test.deck.push(.error(PanelError(.outOfSpace, recoveryOptions: options)), panel: "p")
        return test
    }

    @Test func theCardOffersTheErrorsOptionsThenThePanels() async throws {
        let test = try await Self.failingDeck(.freeSpace {}, .buyMoreSpace {})
        let card = try await test.deck.panelState("p").latestValidError
        #expect(card?.options.map(\.id) == ["free-space", "buy-space", "try-again", "cancel"])
    }

    @Test func aHandlerRunsWithThePreloaderThenToastsAndReloads() async throws {
        let clock = TestClock<Duration>()
        let test = try await Self.failingDeck(clock: clock, .freeSpace { try await clock.sleep(untilOffset: .seconds(2)) })
        try await test.deck.recover(panel: "p", option: "free-space")
        let working = await test.until { $0.latestValidError?.showPreloader == true }
        #expect(working?.phase == .error)
        await test.advance(to: .seconds(2))
        #expect(await test.untilToasts(2)?.message == "Free space: done")
        let reloading = await test.until { $0.isLoading }
        #expect(reloading?.latestValidError?.showPreloader == false)
        await test.advance(to: .milliseconds(2500))
        await test.until { $0.phase == .loaded }
        #expect(test.toasts.last?.message == "P is back")
    }

    @Test func anOptionsOwnMessageIsTheSuccessToast() async throws {
        let test = try await Self.failingDeck(.custom("restart", "Restart", message: "Restarted, reloading") {})
        try await test.deck.recover(panel: "p", option: "restart")
        #expect(await test.untilToasts(2)?.message == "Restarted, reloading")
    }

    @Test func aFailedHandlerToastsAndKeepsTheCard() async throws {
        let test = try await Self.failingDeck(.custom("restart", "Restart") { throw PanelError(.commandFailed) })
        try await test.deck.recover(panel: "p", option: "restart")
        let toast = await test.untilToasts(2)
        #expect(toast?.message == "Restart failed: Command failed")
        #expect(toast?.style == .error)
        let state = await test.until { $0.latestValidError?.showPreloader == false }
        #expect(state?.phase == .error)
    }

    @Test func tryAgainIsAManualRetryWithThePreloader() async throws {
        let test = try await Self.failingDeck()
        try await test.deck.recover(panel: "p", option: "try-again")
        let retrying = await test.until { $0.isLoading }
        #expect(retrying?.latestValidError?.showPreloader == true)
        await test.advance(to: .milliseconds(500))
        let loaded = await test.until { $0.phase == .loaded }
        #expect(loaded?.latestError?.showPreloader == false)
        #expect(test.toasts.last?.message == "P is back")
    }

    @Test func dismissingShowsTheLastInfoAsStaleUntilTheNextLoad() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .two } }
        try await test.deck.push(.loaded(.one), panel: "p")
        try await test.deck.push(.error(.server), panel: "p")
        try await test.deck.recover(panel: "p", option: "cancel")
        let dismissed = try await test.deck.panelState("p")
        #expect(dismissed.phase == .loaded)
        #expect(dismissed.latestValidInfo == .one)
        #expect(dismissed.stale)
        #expect(test.toasts.last?.message == "P: error dismissed")
        #expect(test.toasts.last?.style == .info)
        try await test.deck.retry(panel: "p")
        #expect(try await test.deck.panelState("p").stale, "still the old info while loading")
        await test.advance(to: .milliseconds(500))
        let fresh = await test.until { !$0.stale }
        #expect(fresh?.latestValidInfo == .two)
    }

    @Test func dismissingWithoutInfoResets() async throws {
        let test = try await Self.failingDeck()
        try await test.deck.recover(panel: "p", option: "cancel")
        let state = try await test.deck.panelState("p")
        #expect(state.phase == .initial)
        #expect(state.history.isEmpty)
        #expect(state.latestError == nil)
        #expect(!state.stale)
    }

    @Test func anOptionNotOnTheCardIsUnknown() async throws {
        let test = try await Self.failingDeck()
        await #expect(throws: DeckError.unknownOption(panel: "p", option: "free-space")) {
            try await test.deck.recover(panel: "p", option: "free-space")
        }
    }

    @Test func recoveringWithoutAnErrorIsAConflict() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await test.deck.push(.loaded(.one), panel: "p")
        await #expect(throws: DeckError.conflict("Panel 'p' shows no error to recover from.")) {
            try await test.deck.recover(panel: "p", option: "try-again")
        }
    }

    @Test func oneRecoveryAtATime() async throws {
        let gate = Gate()
        defer { gate.open() }
        let test = try await Self.failingDeck(.freeSpace { await gate.wait() })
        try await test.deck.recover(panel: "p", option: "free-space")
        await #expect(throws: DeckError.self) { try await test.deck.recover(panel: "p", option: "free-space") }
    }
}
