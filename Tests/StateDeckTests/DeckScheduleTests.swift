import Clocks
import TestSupport
import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct DeckScheduleTests {
    @Test func refreshesEachIntervalAfterTheLoadEnded() async {
        let loader = ScriptedLoader(.success(.one))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() }.refresh(every: .seconds(5)) }
        await test.deck.start()
        await test.advance(to: .milliseconds(500))
        await test.until { $0.phase == .loaded }
        await test.advance(to: .milliseconds(5500))
        await test.until { $0.history.count == 4 }
        await test.advance(to: .seconds(6))
        let second = await test.until { $0.history.count == 5 }
        #expect(second?.history.map(\.at) == [0, 0, 500, 5500, 6000].map { TestDeck.date(at: .milliseconds($0)) })
        #expect(loader.callCount == 2)
    }

    @Test func aDeckDroppedWithoutStopEndsInsteadOfRefreshingForever() async throws {
        weak var dropped: Deck?
        do {
            let test = await TestDeck { Panel("p", title: "P") { .one }.refresh(every: .seconds(5)) }
            dropped = test.deck
            await test.deck.start()
            await test.advance(to: .milliseconds(500))
            await test.until { $0.phase == .loaded }
            try await test.deck.retry(panel: "p")
            await test.advance(to: .seconds(2))
            await test.untilToasts(1)
        }
        #expect(await eventually { dropped == nil }, "a waiting refresh or toast timer kept the deck alive")
    }

    @Test func aPanelFailingInTheBackgroundToastsOnce() async {
        let loader = ScriptedLoader(.failure(.missing))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() }.refresh(every: .seconds(5)) }
        await test.deck.start()
        for end in [500, 6000, 11500] {
            await test.advance(to: .milliseconds(end))
            await test.until { $0.history.last?.at == TestDeck.date(at: .milliseconds(end)) }
        }
        #expect(loader.callCount == 3)
        #expect(test.toasts.count == 1)
    }

    @Test func stopCancelsTheLoader() async {
        let cancelled = Recorder<Bool>()
        let clock = TestClock<Duration>()
        let test = await TestDeck(clock: clock) {
            Panel("p", title: "P") {
                do {
                    try await clock.sleep(untilOffset: .seconds(5))
                } catch {
                    cancelled.append(true)
                    throw error
                }
                return .one
            }
        }
        await test.deck.start()
        await test.until { $0.isLoading }
        await test.deck.stop()
        await test.eventually { cancelled.all.first }
    }
}
