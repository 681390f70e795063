import Clocks
import Foundation
import TestSupport
import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct DeckScheduleTests {
    @Test func refreshesEachIntervalAfterTheLoadEnded() async {
        let loader = ScriptedLoader(.success(.one), .success(.one), .success(.two))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() }.refresh(every: .seconds(5)) }
        await test.deck.start()
        await test.advance(to: .milliseconds(500))
        let loaded = await test.until { $0.phase == .loaded }
        #expect(loaded?.loadMs == 0, "the minimum loading time it was held is not the load's")
        let published = test.states().count
        // An unchanged refresh, as fast, records and sends nothing.
        await test.advance(to: .milliseconds(5500))
        await test.eventually { loader.callCount == 2 ? true : nil }
        await test.settle()
        #expect(test.states().count == published)
        // A changed one records only its result.
        await test.advance(to: .milliseconds(10500))
        let changed = await test.until { $0.latestValidInfo == .two }
        #expect(changed?.history.map(\.at) == [0, 0, 500, 10500].map { TestDeck.date(at: .milliseconds($0)) })
        #expect(changed?.history.map(\.state) == [.initial, .loading, .loaded, .loaded])
        #expect(test.states().count == published + 1)
    }

    @Test func panelsSharingAnIntervalSpreadTheirFirstRefreshesOverIt() async {
        let sharing = (0..<4).map { _ in ScriptedLoader(.success(.one)) }
        let alone = ScriptedLoader(.success(.one))
        let test = await TestDeck {
            for (position, loader) in sharing.enumerated() {
                Panel("p\(position)", title: "P") { try loader.load() }.refresh(every: .seconds(10))
            }
            Panel("alone", title: "Alone") { try alone.load() }.refresh(every: .seconds(4))
        }
        await test.deck.start()
        await test.advance(to: .milliseconds(500))
        await test.until("p3") { $0.phase == .loaded }
        /// Checks that `loader` has been called `count` times just before `offset`, then once more at it.
        func expectLoad(_ loader: ScriptedLoader, _ count: Int, at offset: Int) async {
            await test.advance(to: .milliseconds(offset - 1))
            await test.settle()
            #expect(loader.callCount == count - 1, "before \(offset) ms")
            await test.advance(to: .milliseconds(offset))
            #expect(await test.eventually { loader.callCount == count ? true : nil } == true, "at \(offset) ms")
        }
        // Alone on its interval, a panel refreshes one interval after its first load ended.
        await expectLoad(alone, 2, at: 4_500)
        // The k-th of four refreshes (k + ½) / 4 + ½ of 10 s after its first load ended at 500 ms.
        for (loader, offset) in zip(sharing, [6_750, 9_250, 11_750, 14_250]) {
            await expectLoad(loader, 2, at: offset)
        }
        // Then each keeps its interval (an unchanged refresh ends at once).
        await expectLoad(sharing[0], 3, at: 16_750)
        await expectLoad(sharing[1], 3, at: 19_250)
    }

    @Test func aSlowCheckShowsNothingUntilItsResultAndRecordsOnlyAChangedOne() async {
        let clock = TestClock<Duration>()
        let answers = ScriptedLoader(.success(.one), .success(.one), .success(.two))
        let test = await TestDeck(clock: clock) {
            Panel("p", title: "P") {
                try await clock.sleep(for: .seconds(1))
                return try answers.load()
            }
            .minimumLoadingTime(.zero)
            .refresh(every: .seconds(5))
        }
        await test.deck.start()
        await test.advance(to: .seconds(1))
        await test.until { $0.phase == .loaded }
        let published = test.states().count
        // The check from 6 s to 7 s answers what is shown: nothing while it runs, nothing after.
        await test.advance(to: .seconds(7))
        await test.eventually { answers.callCount == 2 ? true : nil }
        await test.settle()
        #expect(test.states().count == published, "the same duration too, so not even loadMs changed")
        // The check from 12 s to 13 s answers something else: its result alone is recorded.
        await test.advance(to: .seconds(13))
        let changed = await test.until { $0.latestValidInfo == .two }
        #expect(changed?.history.map(\.state) == [.initial, .loading, .loaded, .loaded])
        #expect(changed?.history.last?.at == TestDeck.date(at: .seconds(13)))
        #expect(test.states().dropFirst(published).allSatisfy { !$0.isLoading }, "no loading was shown")
    }

    @Test func aCheckThatFailsAsBeforeRetriesUnseenAndRecordsNothing() async {
        let loader = ScriptedLoader(.failure(.server))
        let test = await TestDeck { Panel("p", title: "P") { try loader.load() }.refresh(every: .seconds(5)) }
        await test.deck.start()
        await test.advance(to: .seconds(4))
        let failed = await test.until { $0.phase == .error && !$0.isLoading }
        #expect(loader.callCount == 3, "the first load retried in sight")
        #expect(test.states().contains { $0.retry != nil })
        let published = test.states().count
        await test.advance(to: .seconds(12))
        await test.eventually { loader.callCount == 6 ? true : nil }
        await test.settle()
        let since = test.states().dropFirst(published)
        #expect(since.allSatisfy { !$0.isLoading && $0.retry == nil }, "the check's attempts were not shown")
        #expect(since.allSatisfy { $0.history == failed?.history }, "nor recorded")
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
        await test.advance(to: .milliseconds(500))
        await test.until { $0.phase == .error }
        for (end, calls) in [(5500, 2), (10500, 3)] {
            await test.advance(to: .milliseconds(end))
            await test.eventually { loader.callCount == calls ? true : nil }
        }
        await test.settle()
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

@Suite(.stopsDecks) struct DeckStartTests {
    /// Counts the loads that began.
    final class Started: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    @Test func aLargeDeckStartsAtMostAWaveOfFirstLoadsAtOnce() async throws {
        let gate = Gate()
        let started = Started()
        let test = await TestDeck {
            for index in 0..<600 {
                Panel("p\(index)", title: "P") {
                    started.add()
                    await gate.wait()
                    return .one
                }
                .minimumLoadingTime(.zero)
            }
        }
        await test.deck.start()
        #expect(await test.eventually { started.value == 250 ? true : nil } == true)
        await test.advance(to: .milliseconds(49))
        await test.settle()
        #expect(started.value == 250, "nothing more before 50 ms")
        // While 250 run, 50 ms later only the floor of 25 more start.
        await test.advance(to: .milliseconds(50))
        #expect(await test.eventually { started.value == 275 ? true : nil } == true)
        await test.settle()
        #expect(started.value == 275)
        // Once they end, the next 50 ms fill the room they left, up to 250 running.
        gate.open()
        await test.until("p274") { $0.phase == .loaded }
        await test.advance(to: .milliseconds(100))
        #expect(await test.eventually { started.value == 525 ? true : nil } == true)
        await test.until("p524") { $0.phase == .loaded }
        await test.advance(to: .milliseconds(150))
        #expect(await test.eventually { started.value == 600 ? true : nil } == true)
    }
}
