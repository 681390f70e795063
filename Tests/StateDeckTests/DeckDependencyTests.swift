import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct DeckDependencyTests {
    static func stack() async -> TestDeck {
        await TestDeck {
            Panel("db", title: "Postgres") { .one }
            Panel("cache", title: "Redis") { .one }
            Panel("api", title: "API") { .one }.depends(on: "db", "cache", "db")
        }
    }

    static func changes(_ test: TestDeck, of id: String) -> [PanelChange] {
        test.events.all.compactMap { if case .change(let change) = $0, change.panel == id { change } else { nil } }
    }

    @Test func theDeckExposesEachPanelsDependenciesOnce() async throws {
        let test = await Self.stack()
        #expect(test.deck.dependencies == ["api": ["db", "cache"]])
        let api = try await test.deck.panelState("api")
        #expect(api.dependsOn == ["db", "cache"])
        #expect(api.probableCauses == [])
    }

    @Test func aDependencyDownBeforeItsDependentIsItsProbableCause() async throws {
        let test = await Self.stack()
        try await test.deck.push(.error(.server), panel: "db")
        #expect(try await test.deck.panelState("api").probableCauses == [], "api itself is not down")
        try await test.deck.push(.error(.server), panel: "api")
        let failing = await test.until("api") { $0.phase == .error }
        #expect(failing?.probableCauses == ["db"])
        #expect(try await test.deck.panelState("db").probableCauses == [], "db depends on nothing")
    }

    @Test func aDependencyGoingDownAfterItsDependentRepublishesIt() async throws {
        let test = await Self.stack()
        try await test.deck.push(.error(.server), panel: "api")
        await test.until("api") { $0.phase == .error }
        try await test.deck.push(.error(.server), panel: "cache")
        let republished = await test.until("api") { !$0.probableCauses.isEmpty }
        #expect(republished?.probableCauses == ["cache"])
        try await test.deck.push(.error(.server), panel: "db")
        let both = await test.until("api") { $0.probableCauses.count == 2 }
        #expect(both?.probableCauses == ["db", "cache"], "in the declared order")
        #expect(Self.changes(test, of: "api").count == 1, "nothing of api's own changed")
    }

    @Test func aDependencyRecoveringFirstClearsItsDependentsCauses() async throws {
        let test = await Self.stack()
        try await test.deck.push(.error(.server), panel: "db")
        try await test.deck.push(.error(.server), panel: "api")
        await test.until("api") { $0.probableCauses == ["db"] }
        try await test.deck.push(.loaded(.one), panel: "db")
        let cleared = await test.until("api") { $0.probableCauses.isEmpty }
        #expect(cleared?.health == .down, "api is still down, for a cause of its own")
        #expect(Self.changes(test, of: "api").count == 1)
    }

    @Test func aDependentThatRecoversHasNoCauses() async throws {
        let test = await Self.stack()
        try await test.deck.push(.error(.server), panel: "db")
        try await test.deck.push(.error(.server), panel: "api")
        await test.until("api") { $0.probableCauses == ["db"] }
        try await test.deck.push(.loaded(.one), panel: "api")
        let up = await test.until("api") { $0.health == .up }
        #expect(up?.probableCauses == [])
    }

    @Test func aLoadThatDoesNotChangeHealthRepublishesNoDependent() async throws {
        let test = await Self.stack()
        try await test.deck.push(.error(.server), panel: "api")
        try await test.deck.push(.error(.server), panel: "db")
        await test.until("api") { $0.probableCauses == ["db"] }
        let published = test.states("api").count
        try await test.deck.push(.error(.missing), panel: "db")
        await test.until("db") { $0.latestValidError?.kind == .notFound }
        #expect(test.states("api").count == published)
    }

    @Test func cyclesAreFoundFromTheFirstPanelOnTheirWay() {
        let order = ["web", "api", "cache", "db"]
        #expect(Deck.dependencyCycle(in: ["web": ["api"], "api": ["cache", "db"], "cache": ["api"]], order: order)
            == ["api", "cache", "api"])
        #expect(Deck.dependencyCycle(in: ["db": ["db"]], order: order) == ["db", "db"])
        #expect(Deck.dependencyCycle(in: ["web": ["api", "db"], "api": ["db", "elsewhere"], "cache": ["db"]],
                                     order: order) == nil, "a panel two others depend on is no cycle")
    }
}
