import StateDeck
import Testing

/// A load's readings (a ping's round trips) are a measurement: shown as the panel's newest, never
/// a change, never in the history.
@Suite("Readings")
struct ReadingsTests {
    static func reachable(_ roundTrip: String) -> Info {
        Info(summary: "Reachable", readings: [Info.Field("Round trip", roundTrip)])
    }

    @Test func readingsThatDifferAtEveryCheckAreShownButNeverRecorded() async {
        let answers = ScriptedLoader(.success(Self.reachable("0.05 ms")), .success(Self.reachable("0.07 ms")),
                                     .failure(.server), .success(Self.reachable("0.04 ms")))
        let test = await TestDeck {
            Panel("p", title: "P") { try answers.load() }.minimumLoadingTime(.zero).retry(.none).refresh(every: .seconds(5))
        }
        await test.deck.start()
        let first = await test.until { $0.phase == .loaded }
        #expect(first?.latestValidInfo == Info(summary: "Reachable"), "the info kept holds no readings")
        #expect(first?.readings == [Info.Field("Round trip", "0.05 ms")])
        let recorded = first?.history.count
        await test.advance(to: .seconds(5))
        let measured = await test.until { $0.readings == [Info.Field("Round trip", "0.07 ms")] }
        #expect(measured?.history.count == recorded, "a load that differs only in its readings is no change")
        #expect(measured?.latestValidInfo == Info(summary: "Reachable"))
        await test.advance(to: .seconds(10))
        let failed = await test.until { $0.phase == .error }
        #expect(failed?.readings == nil, "an error has no readings")
        await test.advance(to: .seconds(15))
        let back = await test.until { $0.phase == .loaded }
        #expect(back?.readings == [Info.Field("Round trip", "0.04 ms")])
    }

    @Test func aPushedInfosReadingsAreTakenTheSameWay() async throws {
        let test = await TestDeck { Panel("p", title: "P") { Info(summary: "pushed only") } }
        try await test.deck.push(.loaded(Self.reachable("3 ms")), panel: "p")
        let pushed = await test.until { $0.phase == .loaded }
        #expect(pushed?.latestValidInfo == Info(summary: "Reachable"))
        #expect(pushed?.readings == [Info.Field("Round trip", "3 ms")])
    }
}
