import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct DeckFlappingTests {
    static func changes(_ test: TestDeck) -> [PanelChange] {
        test.events.all.compactMap { if case .change(let change) = $0 { change } else { nil } }
    }

    /// Pushes info, then an error, and so on, one a minute from `first` minutes for `count` minutes.
    static func alternate(_ test: TestDeck, from first: Int, count: Int) async throws {
        for minute in first..<(first + count) {
            await test.advance(to: .seconds(60 * minute))
            try await test.deck.push(minute.isMultiple(of: 2) ? .loaded(.one) : .error(.server), panel: "p")
        }
    }

    @Test func theChangeThatMakesMoreThanTheRuleAllowsBeginsFlapping() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await Self.alternate(test, from: 0, count: 6)
        #expect(Self.changes(test).map(\.flapping) == [false, false, false, false, false, false],
                "from unknown to up does not count: 5 changes")
        #expect(try await test.deck.panelState("p").flapping == nil)
        try await Self.alternate(test, from: 6, count: 1)
        #expect(Self.changes(test).last?.flapping == true, "the sixth")
        let flapping = try await test.deck.panelState("p").flapping
        #expect(flapping == FlappingStatus(since: TestDeck.date(at: .seconds(360)), changes: 6, within: "10 min"))
        try await Self.alternate(test, from: 7, count: 1)
        #expect(Self.changes(test).last?.flapping == true)
        #expect(try await test.deck.panelState("p").flapping?.changes == 7)
    }

    @Test func flappingEndsWithAMarkWhenTheWindowPassesWithoutAChange() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await Self.alternate(test, from: 0, count: 7)
        let marks = { Self.changes(test).filter { $0.cause == .mark } }
        await test.advance(to: .seconds(960) - .milliseconds(1))
        await test.settle()
        #expect(marks().isEmpty)
        await test.advance(to: .seconds(960))
        let calm = await test.until { $0.flapping == nil }
        #expect(calm?.health == .up)
        let mark = try #require(marks().first)
        #expect(mark == PanelChange(panel: "p", at: TestDeck.date(at: .seconds(960)), state: .loaded(.one), cause: .mark,
                                    health: .up, recorded: false))
        #expect(marks().count == 1)
    }

    @Test func aChangeWhileFlappingMovesItsEnd() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await Self.alternate(test, from: 0, count: 7)
        try await Self.alternate(test, from: 15, count: 1)
        await test.advance(to: .seconds(960))
        await test.settle()
        #expect(try await test.deck.panelState("p").flapping != nil, "steady since 15 min only")
        await test.advance(to: .seconds(1_500))
        await test.until { $0.flapping == nil }
        #expect(Self.changes(test).last?.at == TestDeck.date(at: .seconds(1_500)))
    }

    @Test func changesOfLoadingDoNotCount() async throws {
        let test = await TestDeck(flapping: FlappingRule(changes: 1, within: .seconds(600))) {
            Panel("p", title: "P") { .one }
        }
        for state: ViewState in [.loading, .loaded(.one), .error(.server), .loading] {
            try await test.deck.push(state, panel: "p")
        }
        #expect(Self.changes(test).map(\.health) == [.loading, .up, .down, .down])
        #expect(!Self.changes(test).contains { $0.flapping }, "one change between up and down")
        try await test.deck.push(.loaded(.one), panel: "p")
        #expect(Self.changes(test).last?.flapping == true)
    }

    @Test func aChangeExactlyTheWindowAgoNoLongerCounts() async throws {
        let test = await TestDeck(flapping: FlappingRule(changes: 1, within: .seconds(600))) {
            Panel("p", title: "P") { .one }
        }
        for (minute, state) in [(0, ViewState.loaded(.one)), (1, .error(.server)), (11, .loaded(.one))] {
            await test.advance(to: .seconds(60 * minute))
            try await test.deck.push(state, panel: "p")
        }
        #expect(!Self.changes(test).contains { $0.flapping }, "the change at 1 min left the window at 11")
        await test.advance(to: .seconds(720))
        try await test.deck.push(.error(.server), panel: "p")
        #expect(Self.changes(test).last?.flapping == true)
    }

    @Test func offCountsNothing() async throws {
        let test = await TestDeck(flapping: nil) { Panel("p", title: "P") { .one } }
        try await Self.alternate(test, from: 0, count: 20)
        #expect(!Self.changes(test).contains { $0.flapping })
        #expect(try await test.deck.panelState("p").flapping == nil)
    }

    @Test func aReplacingDeckContinuesFlappingAndEndsItOnTime() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await Self.alternate(test, from: 0, count: 7)
        let memories = await test.deck.memories(of: ["p"])
        await test.deck.stop()
        let next = await TestDeck(clock: test.clock, memories: memories) { Panel("p", title: "P") { .one } }
        #expect(try await next.deck.panelState("p").flapping?.changes == 6)
        await next.deck.start()
        await next.advance(to: .seconds(960))
        await next.until { $0.flapping == nil }
        #expect(Self.changes(next).last?.cause == .mark)
        #expect(Self.changes(next).last?.at == TestDeck.date(at: .seconds(960)))
    }

    /// The memory a history store keeps of the panel after the changes so far.
    static func stored(_ test: TestDeck) throws -> [String: PanelMemory] {
        let last = try #require(changes(test).last)
        return ["p": PanelMemory(entries: [], latestInfo: .one, latestError: nil, shown: last.state, stale: false,
                                 health: last.health, flaps: last.flaps)]
    }

    @Test func aDeckContinuedFromAHistoryFlapsFromTheSameSinceAndCountsOn() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await Self.alternate(test, from: 0, count: 7)
        let memories = try Self.stored(test)
        await test.deck.stop()
        let next = await TestDeck(clock: test.clock) { Panel("p", title: "P") { .one } }
        await next.deck.restore(memories)
        #expect(try await next.deck.panelState("p").flapping
            == FlappingStatus(since: TestDeck.date(at: .seconds(360)), changes: 6, within: "10 min"))
        await next.deck.start()
        await next.advanceThroughLoad(to: .seconds(361))
        await next.advance(to: .seconds(420))
        try await next.deck.push(.error(.server), panel: "p")
        #expect(Self.changes(next).last?.flaps
            == FlapRecord(changes: (1...7).map { TestDeck.date(at: .seconds(60 * $0)) }, since: TestDeck.date(at: .seconds(360))),
            "the change after the restart counts with those restored")
        await next.advance(to: .seconds(1_020) - .milliseconds(1))
        await next.settle()
        #expect(try await next.deck.panelState("p").flapping != nil)
        await next.advance(to: .seconds(1_020))
        await next.until { $0.flapping == nil }
        #expect(Self.changes(next).last?.cause == .mark)
        #expect(Self.changes(next).last?.at == TestDeck.date(at: .seconds(1_020)))
    }

    @Test func aDeckContinuedFromAHistoryAfterTheWindowOrWithFlappingOffDoesNotFlap() async throws {
        let test = await TestDeck { Panel("p", title: "P") { .one } }
        try await Self.alternate(test, from: 0, count: 7)
        let memories = try Self.stored(test)
        await test.deck.stop()
        let off = await TestDeck(clock: test.clock, flapping: nil) { Panel("p", title: "P") { .one } }
        await off.deck.restore(memories)
        #expect(try await off.deck.panelState("p").flapping == nil)
        await test.advance(to: .seconds(960))
        let later = await TestDeck(clock: test.clock) { Panel("p", title: "P") { .one } }
        await later.deck.restore(memories)
        await later.deck.start()
        await later.advanceThroughLoad(to: .seconds(961))
        #expect(try await later.deck.panelState("p").flapping == nil, "the window passed since 6 min")
        #expect(!Self.changes(later).contains { $0.cause == .mark }, "it calmed while the server was down")
    }
}
