import Clocks
import Testing
@testable import StateDeck

/// A loader waiting for its turn (``LoadProgress``): the panel says `queued`, and the attempt's
/// timeout stands still until the turn comes.
@Suite(.stopsDecks) struct DeckQueuedLoadTests {
    /// Waits in line until 5 s, then works for `work`.
    static func waitingPanel(_ clock: TestClock<Duration>, work: Duration) -> Panel {
        Panel("p", title: "P") {
            await LoadProgress.waitingForTurn(true)
            try await clock.sleep(untilOffset: .seconds(5))
            await LoadProgress.waitingForTurn(false)
            try await clock.sleep(untilOffset: .seconds(5) + work)
            return .one
        }
        .timeout(.seconds(1))
        .retry(.none)
        .minimumLoadingTime(.zero)
    }

    @Test func aWaitingLoadIsQueuedAndItsTimeoutStandsStill() async {
        let clock = TestClock<Duration>()
        let test = await TestDeck(clock: clock) { Self.waitingPanel(clock, work: .milliseconds(900)) }
        await test.deck.start()
        let queued = await test.until { $0.queued }
        #expect(queued?.isLoading == true)
        await test.advance(to: .seconds(5))
        await test.until { !$0.queued }
        #expect(test.states().last?.isLoading == true)
        await test.advance(to: .milliseconds(5900))
        let loaded = await test.until { $0.phase != .loading }
        #expect(loaded?.phase == .loaded, "waiting 5 s in line is not a timeout of 1 s")
        #expect(loaded?.queued == false)
    }

    @Test func theTimeoutRunsOnceTheTurnCame() async {
        let clock = TestClock<Duration>()
        let test = await TestDeck(clock: clock) { Self.waitingPanel(clock, work: .seconds(2)) }
        await test.deck.start()
        await test.until { $0.queued }
        await test.advance(to: .seconds(5))
        await test.until { !$0.queued }
        await test.advance(to: .milliseconds(5999))
        await test.settle()
        #expect(test.states().last?.phase == .loading)
        await test.advance(to: .seconds(6))
        let failed = await test.until { $0.phase == .error }
        #expect(failed?.latestValidError?.kind == .timeout)
    }
}
