import Foundation
import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct MaintenanceTests {
    static func panel(_ id: String = "p", group: String? = nil) -> Panel {
        let panel = Panel(id, title: id.uppercased(), heartbeat: .every(.seconds(86_400), grace: .seconds(600)))
        return group.map { panel.group(PanelGroup($0)) } ?? panel
    }

    /// Upgrades from 10:01 to 10:03 on the test clock's day.
    static let upgrade = MaintenanceWindow(
        id: "upgrade", reason: "Database upgrade", panels: ["p"],
        timing: .once(from: TestDeck.date(at: .seconds(60)), until: TestDeck.date(at: .seconds(180))))

    /// Ten minutes from each full hour (UTC).
    static let hourly = MaintenanceWindow(
        id: "hourly", reason: "Rotation", panels: ["p"],
        timing: .recurring(.init(schedule: "0 * * * * (UTC)", duration: .seconds(600),
                                 latestStart: { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600) },
                                 nextStart: { Date(timeIntervalSince1970: (($0.timeIntervalSince1970 / 3_600).rounded(.down) + 1) * 3_600) })))

    static func changes(_ test: TestDeck) -> [PanelChange] {
        test.events.all.compactMap { if case .change(let change) = $0 { change } else { nil } }
    }

    static func statuses(_ test: TestDeck) -> [(MaintenanceStatus, [MaintenanceSpan])] {
        test.events.all.compactMap { if case .maintenance(let status, let keep) = $0 { (status, keep) } else { nil } }
    }

    @Test func aOneOffWindowOpensAndEndsAtItsExactTimes() async throws {
        let test = await TestDeck(maintenance: [Self.upgrade]) { Self.panel() }
        await test.deck.start()
        try await test.deck.ping(panel: "p", .success, body: "ok")
        await test.until { $0.phase == .loaded }
        let before = try #require(Self.statuses(test).last?.0)
        #expect(before.active.isEmpty)
        #expect(before.next.map(\.id) == ["upgrade"])
        #expect(before.next.first?.from == TestDeck.date(at: .seconds(60)))

        await test.advance(to: .seconds(60) - .milliseconds(1))
        await test.settle()
        #expect(test.states().last?.maintenance == nil)
        await test.advance(to: .seconds(60))
        let mark = MaintenanceMark(id: "upgrade", reason: "Database upgrade", until: TestDeck.date(at: .seconds(180)))
        let opened = await test.until { $0.maintenance != nil }
        #expect(opened?.maintenance == mark)
        #expect(opened?.health == .up, "a window changes what the panel is under, not its health")
        let change = try #require(Self.changes(test).last)
        #expect(change.cause == .mark)
        #expect(change.at == TestDeck.date(at: .seconds(60)))
        #expect(change.state == .loaded(Info(summary: "ok")))
        #expect(change.health == .up)
        #expect(!change.recorded)
        #expect(change.maintenance == mark)
        #expect(Self.statuses(test).last?.0.active.map(\.id) == ["upgrade"])
        #expect(Self.statuses(test).last?.0.next.isEmpty == true, "a one-off window comes once")

        await test.advance(to: .seconds(180))
        let ended = await test.until { $0.maintenance == nil }
        #expect(ended?.phase == .loaded)
        let end = try #require(Self.changes(test).last)
        #expect(end.cause == .mark)
        #expect(end.at == TestDeck.date(at: .seconds(180)))
        #expect(end.maintenance == nil)
        #expect(Self.statuses(test).last?.0 == MaintenanceStatus())
        #expect(Self.changes(test).map(\.cause) == [.ping(nil), .mark, .mark])
    }

    @Test func aDeckWithoutWindowsTellsItsStatusOnceAtItsStart() async throws {
        // Those following it may hold the windows of the deck before: a cluster's replicas, the last leader's.
        let test = await TestDeck { Self.panel() }
        await test.deck.start()
        try await test.deck.ping(panel: "p", .success, body: "ok")
        await test.until { $0.phase == .loaded }
        #expect(Self.statuses(test).map(\.0) == [MaintenanceStatus()])
        #expect(Self.statuses(test).first?.1.isEmpty == true, "nothing to keep")
    }

    @Test func aRecurringWindowOpensAtEachStartForItsDuration() async throws {
        let test = await TestDeck(maintenance: [Self.hourly]) { Self.panel() }
        await test.deck.start()
        // The clock's zero is 10:00 UTC: the deck starts inside a stretch.
        let first = await test.until { $0.maintenance != nil }
        #expect(first?.maintenance?.until == TestDeck.date(at: .seconds(600)))
        let status = try #require(Self.statuses(test).last?.0)
        #expect(status.active.map(\.schedule) == ["0 * * * * (UTC)"])
        #expect(status.next.map(\.from) == [TestDeck.date(at: .seconds(3_600))])
        await test.advance(to: .seconds(600))
        await test.until { $0.maintenance == nil }
        await test.advance(to: .seconds(3_600) - .milliseconds(1))
        await test.settle()
        #expect(test.states().last?.maintenance == nil)
        await test.advance(to: .seconds(3_600))
        let second = await test.until { $0.maintenance != nil }
        #expect(second?.maintenance?.until == TestDeck.date(at: .seconds(4_200)))
        #expect(Self.changes(test).map(\.at) == [0, 600, 3_600].map { TestDeck.date(at: .seconds($0)) })
    }

    @Test func everyChangeOfAPanelSaysWhetherItIsUnderMaintenance() async throws {
        let test = await TestDeck(maintenance: [Self.upgrade]) { Self.panel() }
        await test.deck.start()
        await test.advance(to: .seconds(90))
        await test.until { $0.maintenance != nil }
        try await test.deck.ping(panel: "p", .failure(exitStatus: 1), body: "disk full")
        await test.until { $0.phase == .error }
        let failed = try #require(Self.changes(test).last)
        #expect(failed.cause == .ping(nil))
        #expect(failed.health == .down, "panels keep being checked")
        #expect(failed.maintenance?.id == "upgrade")
    }

    @Test func aWindowStartedByHandCoversPanelsAndGroupsUntilItIsEnded() async throws {
        let test = await TestDeck {
            Self.panel("a", group: "db")
            Self.panel("b", group: "db")
            Self.panel("c")
            Self.panel("d")
        }
        await test.deck.start()
        await test.advance(to: .seconds(30))
        let span = try await test.deck.startMaintenance(panels: ["d"], groups: ["db"], for: .seconds(1_800), reason: "Moving racks")
        #expect(span == MaintenanceSpan(id: "api-1", reason: "Moving racks", panels: ["a", "b", "d"],
                                        from: TestDeck.date(at: .seconds(30)), until: TestDeck.date(at: .seconds(1_830)),
                                        source: .api))
        await test.until("b") { $0.maintenance?.id == "api-1" }
        #expect(test.states("c").last?.maintenance == nil)
        #expect(Self.statuses(test).last?.1 == [span], "a history keeps a window started by hand")

        await test.advance(to: .seconds(100))
        let ended = try await test.deck.endMaintenance("api-1")
        #expect(ended.until == TestDeck.date(at: .seconds(100)))
        await test.until("a") { $0.maintenance == nil }
        #expect(Self.statuses(test).last?.0.active.isEmpty == true)
        #expect(Self.statuses(test).last?.1 == [ended], "and its early end")
        await #expect(throws: DeckError.unknownMaintenance("api-1")) { try await test.deck.endMaintenance("api-1") }
        await #expect(throws: DeckError.unknownGroup("web")) {
            try await test.deck.startMaintenance(panels: [], groups: ["web"], for: .seconds(60), reason: "x")
        }
        await #expect(throws: DeckError.unknownPanel("zz")) {
            try await test.deck.startMaintenance(panels: ["zz"], groups: [], for: .seconds(60), reason: "x")
        }
        let next = try await test.deck.startMaintenance(panels: ["c"], groups: [], for: .seconds(60), reason: "Again")
        #expect(next.id == "api-2", "ids are not reused")
    }

    @Test func windowsThatCanHoldNoMoreAreForgottenWhateverHowMany() async throws {
        let test = await TestDeck(maintenance: [Self.hourly]) { Self.panel() }
        await test.deck.start()
        await test.until { $0.maintenance != nil }
        _ = try await test.deck.endMaintenance("hourly")
        var started: [MaintenanceSpan] = []
        var offset = Duration.zero
        for minutes in 1...3 {
            for number in 1...CountLimit.startedMaintenance.count {
                started.append(try await test.deck.startMaintenance(panels: ["p"], groups: [], for: .seconds(minutes * 60),
                                                                    reason: "Drill \(number)"))
            }
            await #expect(throws: DeckError.tooMany(.startedMaintenance)) {
                try await test.deck.startMaintenance(panels: ["p"], groups: [], for: .seconds(60), reason: "One more")
            }
            #expect(await test.deck.keptMaintenance().count == CountLimit.startedMaintenance.count + 1,
                    "those holding, and the hourly stretch ended early")
            offset += .seconds(minutes * 60)
            await test.advance(to: offset)
            await test.settle()
            #expect(await test.deck.keptMaintenance().map(\.id) == ["hourly"],
                    "the ended ones are forgotten; the early end is kept while its stretch would hold")
        }
        #expect(Set(started.map(\.id)).count == started.count, "no id is taken again")
        await test.advance(to: .seconds(3_600))
        await test.until { $0.maintenance?.id == "hourly" }
        #expect(await test.deck.keptMaintenance().isEmpty, "the next stretch began: the early end is forgotten")
    }

    @Test func endingARecurringWindowEndsItsStretchOnly() async throws {
        let test = await TestDeck(maintenance: [Self.hourly]) { Self.panel() }
        await test.deck.start()
        await test.until { $0.maintenance != nil }
        await test.advance(to: .seconds(120))
        let ended = try await test.deck.endMaintenance("hourly")
        #expect(ended.from == TestDeck.date(at: .zero))
        #expect(ended.until == TestDeck.date(at: .seconds(120)))
        #expect(ended.source == .deck)
        await test.until { $0.maintenance == nil }
        await test.advance(to: .seconds(3_600))
        await test.until { $0.maintenance?.until == TestDeck.date(at: .seconds(4_200)) }
    }

    @Test func aDeckStartedInsideAKeptWindowOpensItAgainAndKeepsEarlyEnds() async throws {
        let kept = MaintenanceSpan(id: "api-4", reason: "Failover drill", panels: ["p"],
                                   from: TestDeck.date(at: .seconds(-600)), until: TestDeck.date(at: .seconds(1_200)),
                                   source: .api)
        let endedEarly = MaintenanceSpan(id: "hourly", reason: "Rotation", panels: ["p"], from: TestDeck.date(at: .zero),
                                         until: TestDeck.date(at: .seconds(-1)), source: .deck)
        let test = await TestDeck(maintenance: [Self.hourly]) { Self.panel() }
        await test.deck.restoreMaintenance([kept, endedEarly])
        await test.deck.start()
        let reopened = await test.until { $0.maintenance != nil }
        #expect(reopened?.maintenance == MaintenanceMark(id: "api-4", reason: "Failover drill",
                                                         until: TestDeck.date(at: .seconds(1_200))))
        #expect(await test.deck.maintenanceStatus().active == [kept], "the hourly stretch was ended before the restart")
        await test.advance(to: .seconds(1_200))
        await test.until { $0.maintenance == nil }
        let next = try await test.deck.startMaintenance(panels: ["p"], groups: [], for: .seconds(60), reason: "Later")
        #expect(next.id == "api-5", "the number after the highest kept")
    }

    @Test func aDeckThatReplacesAnotherTellsAWindowItNoLongerHasAsEnded() async throws {
        let old = await TestDeck(maintenance: [Self.upgrade]) { Self.panel() }
        await old.deck.start()
        await old.advance(to: .seconds(60))
        await old.until { $0.maintenance != nil }
        let memories = await old.deck.memories(of: ["p"])
        await old.deck.stop()
        let new = await TestDeck { Self.panel() }
        await new.deck.restore(memories)
        #expect(try await new.deck.panelState("p").maintenance?.id == "upgrade", "carried over until the start")
        await new.deck.start()
        await new.until { $0.maintenance == nil }
        let ended = try #require(Self.changes(new).last)
        #expect(ended.cause == .mark)
        #expect(ended.maintenance == nil)
    }

    @Test func aDeckDeclaredWithTheDSLTakesItsWindows() async throws {
        let now = Date()
        let window = MaintenanceWindow(id: "now", reason: "Patching", panels: ["p"],
                                       timing: .once(from: now.addingTimeInterval(-1), until: now.addingTimeInterval(3_600)))
        let deck = Deck("DSL", maintenance: [window]) { Self.panel() }
        await deck.start()
        #expect(try await deck.panelState("p").maintenance?.id == "now")
        await deck.stop()
    }
}
