import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct HeartbeatTests {
    /// Every hour, 10 minutes' grace; the test clock's zero is 10:00 UTC.
    static func backup() -> Panel {
        Panel("p", title: "Backup", heartbeat: .every(.seconds(3_600), grace: .seconds(600), pingPath: "/ping/k"))
    }

    /// A started deck of `backup()`, pinged once at the clock's zero and showing it.
    static func pingedAtZero() async throws -> TestDeck {
        let test = await TestDeck { Self.backup() }
        await test.deck.start()
        try await test.deck.ping(panel: "p", .success, body: "")
        await test.until { $0.phase == .loaded }
        return test
    }

    static func changes(_ test: TestDeck) -> [PanelChange] {
        test.events.all.compactMap { if case .change(let change) = $0 { change } else { nil } }
    }

    @Test func aPanelWaitsForItsFirstPingWithoutEverGoingDown() async {
        let test = await TestDeck { Self.backup() }
        await test.deck.start()
        await test.advance(to: .seconds(10 * 3_600))
        await test.settle()
        let state = try? await test.deck.panelState("p")
        #expect(state?.phase == .initial)
        #expect(state?.health == .unknown)
        #expect(state?.heartbeat == HeartbeatStatus(expects: "every 1 h, 10 min grace", graceMs: 600_000, hasPingURL: true,
                                                    lastPing: nil, lastRun: nil, runningSince: nil, lateAt: nil))
        #expect(Self.changes(test).isEmpty, "nothing loads, nothing is late")
    }

    @Test func aPingIsUpUntilTheNextRunAndItsGraceHavePassed() async throws {
        let test = await TestDeck { Self.backup() }
        await test.deck.start()
        try await test.deck.ping(panel: "p", .success, body: "4 GB copied\n12 files\n")
        let up = await test.until { $0.phase == .loaded }
        #expect(up?.health == .up)
        #expect(up?.latestValidInfo == Info(summary: "4 GB copied", text: "4 GB copied\n12 files"))
        #expect(up?.heartbeat?.lastPing == TestDeck.date(at: .zero))
        #expect(up?.heartbeat?.lateAt == TestDeck.date(at: .seconds(4_200)))
        await test.advance(to: .seconds(4_200) - .milliseconds(1))
        await test.settle()
        #expect(test.states().last?.phase == .loaded)
        await test.advance(to: .seconds(4_200))
        let late = await test.until { $0.phase == .error }
        #expect(late?.health == .down)
        #expect(late?.latestValidError?.kind == .pingMissed)
        #expect(late?.latestValidError?.description == "No ping from Backup since 10:00 UTC; expected by 11:10 UTC.")
        #expect(late?.latestValidError?.options.map(\.id) == [RecoveryOption.cancel.id], "nothing to retry")
        let missed = try #require(Self.changes(test).last)
        #expect(missed.cause == .deadline)
        #expect(missed.at == TestDeck.date(at: .seconds(4_200)))
    }

    @Test func aPingThatShowsWhatIsShownIsAMeasurementThatMovesTheDeadline() async throws {
        let test = try await Self.pingedAtZero()
        await test.advance(to: .seconds(3_000))
        try await test.deck.ping(panel: "p", .success, body: "")
        let moved = await test.until { $0.heartbeat?.lastPing == TestDeck.date(at: .seconds(3_000)) }
        #expect(moved?.heartbeat?.lateAt == TestDeck.date(at: .seconds(7_200)))
        #expect(Self.changes(test).map(\.recorded) == [true, false], "the second ping counts, and records nothing")
        await test.advance(to: .seconds(4_200))
        await test.settle()
        #expect(test.states().last?.phase == .loaded, "the first ping's deadline was moved")
        // The alarm set for the first deadline rang there and was set again for the moved one.
        await test.advance(to: .seconds(7_200) - .milliseconds(1))
        await test.settle()
        #expect(test.states().last?.phase == .loaded)
        await test.advance(to: .seconds(7_200))
        let late = await test.until { $0.phase == .error }
        #expect(late?.latestValidError?.kind == .pingMissed)
        #expect(Self.changes(test).last?.at == TestDeck.date(at: .seconds(7_200)))
    }

    @Test func aStartThatBringsTheDeadlineCloserIsDownThen() async throws {
        let test = try await Self.pingedAtZero()
        await test.advance(to: .seconds(100))
        try await test.deck.ping(panel: "p", .start, body: "")
        await test.until { $0.heartbeat?.runningSince != nil }
        await test.advance(to: .seconds(700) - .milliseconds(1))
        await test.settle()
        #expect(test.states().last?.phase == .loaded, "not down before the start's grace has passed")
        await test.advance(to: .seconds(700))
        let late = await test.until { $0.phase == .error }
        #expect(late?.latestValidError?.description == "Started 10:01 UTC, still running after 10 min.")
        #expect(Self.changes(test).last?.at == TestDeck.date(at: .seconds(700)))
    }

    @Test func pingsTakenTogetherAreTakenInTheirOrderEachWithItsOutcome() async throws {
        let test = await TestDeck {
            Self.backup()
            Panel("q", title: "Q") { Info() }
        }
        await test.deck.start()
        let outcomes = await test.deck.ping([
            Ping(panel: "p", .start, body: ""), Ping(panel: "nope", .success, body: ""),
            Ping(panel: "q", .success, body: ""), Ping(panel: "p", .success, body: "done"),
        ])
        let errors = outcomes.map { outcome -> DeckError? in
            guard case .failure(let error) = outcome else { return nil }
            return error
        }
        #expect(errors == [nil, .unknownPanel("nope"),
                           .conflict("panel q loads its own info; only heartbeat panels take pings"), nil])
        let ended = await test.until { $0.phase == .loaded }
        #expect(ended?.latestValidInfo?.summary == "done")
        #expect(ended?.heartbeat?.runningSince == nil, "the start was taken first, then the end")
        #expect(Self.changes(test).last?.cause == .ping(.zero))
    }

    @Test func aRunFromStartToEndCountsItsDuration() async throws {
        let test = await TestDeck { Self.backup() }
        await test.deck.start()
        try await test.deck.ping(panel: "p", .start, body: "")
        let running = await test.until { $0.heartbeat?.runningSince != nil }
        #expect(running?.heartbeat?.runningSince == TestDeck.date(at: .zero))
        #expect(running?.heartbeat?.lateAt == TestDeck.date(at: .seconds(600)), "a start must end within the grace")
        await test.advance(to: .seconds(90))
        try await test.deck.ping(panel: "p", .success, body: "done")
        let ended = await test.until { $0.phase == .loaded }
        #expect(ended?.loadMs == 90_000)
        #expect(ended?.heartbeat?.runningSince == nil)
        #expect(ended?.heartbeat?.lateAt == TestDeck.date(at: .seconds(90 + 4_200)))
        #expect(Self.changes(test).last?.cause == .ping(.seconds(90)))
    }

    @Test func aStartWithNoEndWithinTheGraceIsDown() async throws {
        let test = await TestDeck { Self.backup() }
        await test.deck.start()
        try await test.deck.ping(panel: "p", .start, body: "")
        await test.advance(to: .seconds(600))
        let late = await test.until { $0.phase == .error }
        #expect(late?.latestValidError?.description == "Started 10:00 UTC, still running after 10 min.")
    }

    @Test func aFailureIsDownWithWhatTheJobSent() async throws {
        let test = await TestDeck { Self.backup() }
        await test.deck.start()
        await test.advance(to: .seconds(300))
        try await test.deck.ping(panel: "p", .failure(exitStatus: 3), body: "rsync: connection refused\n")
        let failed = await test.until { $0.phase == .error }
        #expect(failed?.health == .down)
        #expect(failed?.latestValidError?.kind == .jobFailed)
        #expect(failed?.latestValidError?.description == "Backup exited with status 3 at 10:05 UTC.")
        #expect(failed?.latestValidError?.detail == "rsync: connection refused")
        try await test.deck.ping(panel: "p", .failure(exitStatus: nil), body: "")
        let reported = await test.until { $0.latestValidError?.description.contains("reported a failure") == true }
        #expect(reported?.latestValidError?.detail == nil)
    }

    @Test func aHeartbeatIsNeitherRetriedNorLoaded() async throws {
        let test = await TestDeck { Self.backup() }
        await test.deck.start()
        await #expect(throws: DeckError.conflict("panel p is a heartbeat: only its job's next ping changes what it shows")) {
            try await test.deck.retry(panel: "p")
        }
        let loading = Panel("q", title: "Q") { Info() }
        let other = await TestDeck { loading }
        await #expect(throws: DeckError.conflict("panel q loads its own info; only heartbeat panels take pings")) {
            try await other.deck.ping(panel: "q", .success, body: "")
        }
    }
}
