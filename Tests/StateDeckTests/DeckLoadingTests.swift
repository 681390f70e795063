import Clocks
import Testing
import TestSupport
@testable import StateDeck

@Suite(.stopsDecks) struct DeckLoadingTests {
    @Test func firstLoadShowsInitialLoadingThenInfoAfterTheMinimumTime() async {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        await test.deck.start()
        let loading = await test.until { $0.isLoading }
        #expect(loading?.isInitialLoading == true)
        await test.settle()
        #expect(test.states().last?.phase == .loading, "an instant answer waits for the minimum loading time")

        await test.advance(to: .milliseconds(499))
        await test.settle()
        #expect(test.states().last?.phase == .loading)
        await test.advance(to: .milliseconds(500))
        let loaded = await test.until { $0.phase == .loaded }
        #expect(loaded?.latestValidInfo == .one)
        #expect(loaded?.history.map(\.at) == [0, 0, 500].map { TestDeck.date(at: .milliseconds($0)) })
        #expect(test.toasts.isEmpty, "a quiet first success")
    }

    @Test func aSlowAnswerIsShownAsSoonAsItArrives() async {
        let clock = TestClock<Duration>()
        let test = await TestDeck(clock: clock) {
            Panel("p", title: "P") {
                try await clock.sleep(untilOffset: .seconds(2))
                return .one
            }
        }
        await test.deck.start()
        await test.until { $0.isLoading }
        await test.advance(to: .seconds(2))
        let loaded = await test.until { $0.phase == .loaded }
        #expect(loaded?.history.last?.at == TestDeck.date(at: .seconds(2)))
    }

    @Test func infoPastTheSizeLimitIsAnInvalidResponseNotRetried() async {
        let limit = "0123456789"
        let test = await TestDeck(maximumInfoSize: limit.utf8.count) {
            Panel("fits", title: "Fits") { Info(summary: limit) }
            Panel("p", title: "Too big") { Info(summary: "0123", items: [.init(id: "4567", title: "89!")]) }
        }
        await test.deck.start()
        await test.advance(to: .seconds(1))
        #expect(await test.until("fits") { $0.phase == .loaded } != nil)
        let refused = await test.until { $0.phase == .error }
        #expect(refused?.latestValidError?.kind == .invalidResponse)
        #expect(refused?.latestValidError?.failureReason == "The answer holds 1 KiB of text; a panel shows at most 1 KiB.")
        #expect(refused?.retry == nil, "an invalid response is not worth retrying")
    }

    @Test func pushedAndForcedInfoPastTheLimitsIsTheSameCard() async throws {
        let test = await TestDeck(maximumInfoSize: 4) { Panel("p", title: "P") { .one } }
        try await test.deck.push(.loaded(Info(summary: "too long")), panel: "p")
        let pushed = try await test.deck.panelState("p")
        #expect(pushed.latestValidError?.kind == .invalidResponse)
        #expect(pushed.latestValidError?.failureReason?.hasSuffix("a panel shows at most 1 KiB.") == true)
        let forced = try await test.deck.debug(.loaded(Info(summary: "still too long")), panel: "p")
        #expect(forced.latestValidError?.kind == .invalidResponse)
        #expect(try await test.deck.debug(.loaded(Info(summary: "ok")), panel: "p").latestValidInfo == Info(summary: "ok"))
    }

    @Test func infoListingMoreItemsThanTheLimitIsAnInvalidResponse() async {
        let items = (0...1_000).map { Info.Item(id: "\($0)", title: "Item \($0)") }
        let test = await TestDeck {
            Panel("fits", title: "Fits") { Info(items: Array(items.dropLast())) }
            Panel("p", title: "Too long") { Info(items: items) }
        }
        await test.deck.start()
        await test.advance(to: .seconds(1))
        #expect(await test.until("fits") { $0.phase == .loaded } != nil)
        let refused = await test.until { $0.phase == .error }
        #expect(refused?.latestValidError?.failureReason == "The answer lists 1001 items; a panel shows at most 1000.")
    }

    @Test func aRetryWhileLoadingIsCoalesced() async throws {
        let loader = ScriptedLoader(.success(.one))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() } }
        await test.deck.start()
        await test.until { $0.isLoading }
        #expect(try await test.deck.retry(panel: "p") == RetryResult(coalesced: true))
        await test.advance(to: .seconds(1))
        await test.until { $0.phase == .loaded }
        #expect(loader.callCount == 1)
        #expect(try await test.deck.retry(panel: "p") == RetryResult(coalesced: false))
        await test.advance(to: .seconds(2))
        await test.until { $0.phase == .loaded && $0.history.count == 5 }
        #expect(loader.callCount == 2)
    }

    @Test func retriesByHandKeepAFloorBetweenLoads() async throws {
        let loader = ScriptedLoader(.success(.one))
        let test = await TestDeck {
            Panel("p", title: "P") { try loader.load() }.minimumLoadingTime(.zero)
        }
        await test.deck.start()
        await test.until { $0.phase == .loaded }
        #expect(try await test.deck.retry(panel: "p") == RetryResult(coalesced: false))
        await test.until { $0.phase == .loaded && $0.history.count == 5 }
        for _ in 0..<50 {
            #expect(try await test.deck.retry(panel: "p") == RetryResult(coalesced: true))
        }
        await test.advance(to: .milliseconds(999))
        await test.settle()
        #expect(loader.callCount == 2, "no load before the floor")
        await test.advance(to: .seconds(1))
        await test.until { $0.phase == .loaded && $0.history.count == 7 }
        #expect(loader.callCount == 3, "fifty retries, one load")
        #expect(await test.untilToasts(2) != nil, "the joined load reports its outcome like a retry")
        await test.settle()
        #expect(test.toasts.count == 2)
    }

    @Test func anAttemptTimesOutEvenIfTheLoaderIgnoresCancellation() async {
        let gate = Gate()
        defer { gate.open() }
        let test = await TestDeck {
            Panel("p", title: "P") {
                await gate.wait()
                return .one
            }
            .timeout(.seconds(3))
            .retry(.none)
        }
        await test.deck.start()
        await test.until { $0.isLoading }
        await test.advance(to: .seconds(3))
        let failed = await test.until { $0.phase == .error }
        #expect(failed?.latestValidError?.kind == .timeout)
        #expect(failed?.history.last?.at == TestDeck.date(at: .seconds(3)))
    }

    @Test func anyThrownErrorBecomesAnUnknownCard() async {
        struct Boom: Error {}
        let test = await TestDeck { Panel("p", title: "P") { throw Boom() }.retry(.none) }
        await test.deck.start()
        await test.advance(to: .seconds(1))
        let failed = await test.until { $0.phase == .error }
        #expect(failed?.latestValidError?.kind == .unknown)
        #expect(failed?.latestValidError?.detail == "Boom()")
    }

    @Test func aManualRetryReportsItsOutcome() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        await test.deck.start()
        await test.advance(to: .milliseconds(500))
        await test.until { $0.phase == .loaded }
        try await test.deck.retry(panel: "p")
        await test.advance(to: .seconds(1))
        #expect(await test.untilToasts(1)?.message == "P refreshed")
    }

    @Test func aManualRetryJoiningALoadStillReportsItsOutcome() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        await test.deck.start()
        await test.until { $0.isLoading }
        #expect(try await test.deck.retry(panel: "p").coalesced)
        await test.advance(to: .milliseconds(500))
        #expect(await test.untilToasts(1)?.message == "P refreshed")
    }

    @Test func anUnknownPanelIsRefused() async {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        await #expect(throws: DeckError.unknownPanel("nope")) { try await test.deck.retry(panel: "nope") }
        await #expect(throws: DeckError.unknownPanel("nope")) { try await test.deck.panelState("nope") }
    }

    @Test func everyObserverHearsEveryEventInOrder() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        let second = Recorder<DeckEvent>()
        await test.deck.observe { second.append($0) }
        try await test.deck.push(.loading, panel: "p")
        try await test.deck.push(.error(.server), panel: "p")
        try await test.deck.push(.loaded(.one), panel: "p")
        #expect(second.all == test.events.all)
        #expect(test.states().map(\.phase) == [.loading, .error, .loaded])
        #expect(test.toasts.count == 2)
        #expect(await test.deck.snapshot().panels == [try await test.deck.panelState("p")])
    }
}
