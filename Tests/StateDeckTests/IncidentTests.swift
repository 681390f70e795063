import Foundation
import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct IncidentTests {
    static func panel(_ id: String) -> Panel {
        Panel(id, title: id.uppercased(), heartbeat: .every(.seconds(86_400), grace: .seconds(600)))
    }

    static func told(_ test: TestDeck) -> [([Incident], [Incident])] {
        test.events.all.compactMap { if case .incidents(let shown, let keep) = $0 { (shown, keep) } else { nil } }
    }

    @Test func anIncidentOpensIsUpdatedAndResolvesAtExactTimes() async throws {
        let test = await TestDeck { Self.panel("api"); Self.panel("db") }
        await test.deck.start()
        #expect(Self.told(test).map(\.0) == [[]], "a deck tells its incidents once at its start")
        let opened = try await test.deck.openIncident(title: "Slow answers", panels: ["db", "api", "db"],
                                                      status: .investigating, message: "Looking", author: "ana")
        #expect(opened.id == "20261122-1")
        #expect(opened.panels == ["db", "api"], "each panel once, in the order given")
        #expect(opened.updates == [Incident.Update(at: TestDeck.date(at: .zero), status: .investigating, message: "Looking",
                                                   author: "ana")])
        #expect(Self.told(test).last.map { $0.0 == [opened] && $0.1 == [opened] } == true)

        await test.advance(to: .seconds(60))
        let identified = try await test.deck.updateIncident(opened.id, status: .identified, message: "Disk full", author: "bo")
        #expect(identified.status == .identified)
        #expect(identified.resolvedAt == nil)
        #expect(identified.updates.last?.at == TestDeck.date(at: .seconds(60)))
        #expect(identified.updates.last?.author == "bo")

        await test.advance(to: .seconds(120))
        let resolved = try await test.deck.updateIncident(opened.id, status: .resolved, message: "Cleaned", author: "ana")
        #expect(resolved.resolvedAt == TestDeck.date(at: .seconds(120)))
        #expect(resolved.openedAt == TestDeck.date(at: .zero))
        #expect(resolved.updates.map(\.status) == [.investigating, .identified, .resolved])
        #expect(await test.deck.snapshot().incidents == [resolved], "resolved within a day: still shown")
        let toldBefore = Self.told(test).count

        await test.advance(to: .seconds(120 + 86_400) - .milliseconds(1))
        await test.settle()
        #expect(Self.told(test).count == toldBefore)
        await test.advance(to: .seconds(120 + 86_400))
        let left = await test.eventually { Self.told(test).count > toldBefore ? Self.told(test).last : nil }
        #expect(left?.0 == [] && left?.1 == [], "a day after it was resolved, it leaves the state")
        #expect(await test.deck.snapshot().incidents.isEmpty)
        #expect(await test.deck.incidentList(limit: 10) == [resolved], "and is still listed")
        #expect(try await test.deck.incident(opened.id) == resolved)
    }

    @Test func whatAnIncidentNamesIsChecked() async throws {
        let test = await TestDeck { Self.panel("api") }
        await #expect(throws: DeckError.unknownPanel("web")) {
            try await test.deck.openIncident(title: "T", panels: ["api", "web"], status: .investigating, message: "m",
                                             author: "a")
        }
        await #expect(throws: DeckError.unknownIncident("20261122-9")) {
            try await test.deck.updateIncident("20261122-9", status: .monitoring, message: "m", author: "a")
        }
        let news = try await test.deck.openIncident(title: "Planned move", panels: [], status: .monitoring, message: "m",
                                                    author: "a")
        #expect(news.isAnnouncement)
        _ = try await test.deck.updateIncident(news.id, status: .resolved, message: "Done", author: "a")
        await #expect(throws: DeckError.conflict("Incident '20261122-1' is resolved: open a new one.")) {
            try await test.deck.updateIncident(news.id, status: .monitoring, message: "again", author: "a")
        }
    }

    @Test func idsCountEachDayAndListsAreNewestFirst() async throws {
        let test = await TestDeck { Self.panel("api") }
        let first = try await test.deck.openIncident(title: "A", panels: ["api"], status: .investigating, message: "m", author: "a")
        await test.advance(to: .seconds(60))
        let second = try await test.deck.openIncident(title: "B", panels: [], status: .investigating, message: "m", author: "a")
        await test.advance(to: .seconds(86_400))
        let nextDay = try await test.deck.openIncident(title: "C", panels: [], status: .identified, message: "m", author: "a")
        #expect([first.id, second.id, nextDay.id] == ["20261122-1", "20261122-2", "20261123-1"])
        #expect(await test.deck.incidentList(limit: 10).map(\.id) == ["20261123-1", "20261122-2", "20261122-1"])
        #expect(await test.deck.incidentList(limit: 2).map(\.id) == ["20261123-1", "20261122-2"])
    }

    @Test func aDeckTakesUpTheIncidentsKeptAndCountsOnFromThem() async throws {
        let old = await TestDeck { Self.panel("api") }
        let open = try await old.deck.openIncident(title: "A", panels: ["api"], status: .investigating, message: "m", author: "a")
        let test = await TestDeck { Self.panel("api") }
        await test.deck.restoreIncidents(await old.deck.keptIncidents())
        await test.deck.start()
        #expect(Self.told(test).map(\.0) == [[open]])
        #expect(Self.told(test).first?.1 == [], "taken up, not kept again")
        let next = try await test.deck.openIncident(title: "B", panels: [], status: .investigating, message: "m", author: "a")
        #expect(next.id == "20261122-2")
    }

    @Test func resolvedIncidentsAreKeptNinetyDays() async throws {
        let test = await TestDeck { Self.panel("api") }
        let old = try await test.deck.openIncident(title: "Old", panels: [], status: .investigating, message: "m", author: "a")
        _ = try await test.deck.updateIncident(old.id, status: .resolved, message: "done", author: "a")
        let open = try await test.deck.openIncident(title: "Open", panels: [], status: .investigating, message: "m", author: "a")
        await test.advance(to: .seconds(90 * 86_400))
        _ = try await test.deck.updateIncident(open.id, status: .monitoring, message: "still", author: "a")
        #expect(await test.deck.incidentList(limit: 10).map(\.id) == [open.id, old.id], "90 days to the millisecond: kept")
        await test.advance(to: .seconds(90 * 86_400) + .milliseconds(1))
        _ = try await test.deck.updateIncident(open.id, status: .monitoring, message: "still", author: "a")
        #expect(await test.deck.incidentList(limit: 10).map(\.id) == [open.id], "an open incident is kept however old")
    }
}
