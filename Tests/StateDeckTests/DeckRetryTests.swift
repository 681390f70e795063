import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct DeckRetryTests {
    @Test func failuresAreRetriedBeforeTheErrorIsShown() async {
        let loader = ScriptedLoader(.failure(.server))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() } }
        await test.deck.start()
        let first = await test.until { $0.retry != nil }
        #expect(first?.retry == RetryStatus(attempt: 2, of: 3, nextAt: TestDeck.date(at: .seconds(1))))
        #expect(first?.phase == .loading)
        await test.advance(to: .seconds(1))
        let second = await test.until { $0.retry?.attempt == 3 }
        #expect(second?.retry?.nextAt == TestDeck.date(at: .seconds(3)), "the delay doubles")
        await test.advance(to: .seconds(3))
        let failed = await test.until { $0.phase == .error }
        #expect(failed?.retry == nil)
        #expect(failed?.history.map(\.state) == [.initial, .loading, .error])
        #expect(loader.callCount == 3)
        #expect(test.toasts.count == 1)
    }

    @Test func jitterMovesTheNextAttempt() async {
        let loader = ScriptedLoader(.failure(.server))
        let test = await TestDeck(random: 0) { Panel("p", title: "P") { try loader.load() } }
        await test.deck.start()
        let retrying = await test.until { $0.retry != nil }
        #expect(retrying?.retry?.nextAt == TestDeck.date(at: .milliseconds(700)))
    }

    @Test func kindsNotWorthRetryingFailAtOnce() async {
        let loader = ScriptedLoader(.failure(.missing))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() } }
        await test.deck.start()
        await test.until { $0.isLoading }
        await test.advance(to: .milliseconds(500))
        let failed = await test.until { $0.phase == .error }
        #expect(failed?.latestValidError?.kind == .notFound)
        #expect(loader.callCount == 1)
        #expect(!test.states().contains { $0.retry != nil })
    }

    @Test func aLongRetryAfterDefersTheNextLoad() async {
        let maintenance = PanelError(.serverMaintenance, retryAfter: .seconds(600))
        let loader = ScriptedLoader(.failure(maintenance), .success(.one))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() } }
        await test.deck.start()
        await test.advance(to: .milliseconds(500))
        await test.until { $0.phase == .error }
        #expect(loader.callCount == 1, "beyond the retry cap: shown at once")
        await test.advance(to: .milliseconds(600_499))
        await test.settle()
        #expect(loader.callCount == 1)
        await test.advance(to: .milliseconds(601_000))
        await test.until { $0.phase == .loaded }
        #expect(loader.callCount == 2)
    }
}
