import DeckTestSupport
import Foundation
import Locking
import Postgres
import StateDeck
import StateDeckCluster
import StateDeckServer
import Testing
import TestSupport

/// Probes reporting into a real PostgreSQL, and the leader showing each panel per location.
@Suite(.serialized)
struct ProbeReportsTests {
    /// A probe at `location`: its own deck of the cluster's panel, which shows what the test pushes.
    static func probe(_ location: String, store: String, now: @escaping @Sendable () -> Date = { Date() })
        throws -> (reporter: ProbeReporter, deck: Deck) {
        var configuration = Deck.Configuration(now: now)
        configuration.location = location
        let deck = Deck("Shared", configuration: configuration, panels: [Panel("counter", title: "Counter") { Info() }])
        return (try ProbeReporter(url: store, location: location, heartbeat: .milliseconds(100),
                                  logger: LiveDeckServer.quietLogger), deck)
    }

    /// The leader of a cluster of one, reading the probes every 100 ms; silent for `silence`
    /// they show no data, for `forgetAfter` they are forgotten.
    static func leader(store: String, silence: Duration = .seconds(15), forgetAfter: Duration = .seconds(86_400))
        async throws -> (LiveDeckServer, Task<Void, Never>) {
        let server = try await LiveDeckServer(deck: PostgresClusterTests.makeDeck(), options: try PostgresClusterTests.member(of: store))
        #expect(await eventually { server.server.isRunningDeck })
        var configuration = ProbeReports.Configuration()
        configuration.noDataAfter = silence
        configuration.forgetAfter = forgetAfter
        configuration.pollInterval = .milliseconds(100)
        let reports = ProbeReports(url: store, configuration: configuration, logger: LiveDeckServer.quietLogger)
        return (server, Task { await reports.run(serving: server.server) })
    }

    /// The leader's panel once it shows its own result and `condition` holds of it.
    static func counter(on server: LiveDeckServer, where condition: (PanelState) -> Bool) async throws -> PanelState? {
        try await eventuallyValue { () async throws -> PanelState? in
            let state = try await server.deck.panelState("counter")
            return state.locations?.first?.health == .up && condition(state) ? state : nil
        }
    }

    @Test func aProbesResultShowsOnTheLeadersPanelAndEveryReplicaBesideTheLeadersOwn() async throws {
        try await TemporaryPostgres.with { store in
            let (leader, reading) = try await Self.leader(store: store.url)
            let replica = try await LiveDeckServer(deck: PostgresClusterTests.makeDeck(), options: try PostgresClusterTests.member(of: store.url))
            let probe = try Self.probe("eu-west", store: store.url)
            let reporting = Task { await probe.reporter.run(probe.deck) }
            try await probe.deck.push(.loaded(Info(summary: "fine from eu")), panel: "counter")

            let state = try #require(try await Self.counter(on: leader) { $0.locations?.last?.summary == "fine from eu" })
            let locations = try #require(state.locations)
            #expect(locations.map(\.name) == ["local", "eu-west"])
            #expect(locations.map(\.health) == [.up, .up])
            #expect(state.locationsSummary == "Up from all 2 locations")
            #expect(try await eventually { try await replica.get("/api/panels/counter").text.contains("Up from all 2 locations") })
            let page = try await replica.get("/api/state")
            #expect(page.text.contains(#""name":"eu-west""#) && page.text.contains(#""locationsSummary":"Up from all 2 locations""#))

            reporting.cancel()
            reading.cancel()
            await replica.stop()
            await leader.stop()
        }
    }

    @Test func downFromOneLocationOnlyIsSaidSoAndThePanelKeepsTheLeadersOwnResult() async throws {
        try await TemporaryPostgres.with { store in
            let (leader, reading) = try await Self.leader(store: store.url)
            let probes = [try Self.probe("eu-west", store: store.url), try Self.probe("us-east", store: store.url)]
            let reporting = probes.map { probe in Task { await probe.reporter.run(probe.deck) } }
            try await probes[0].deck.push(.error(PanelError(.unreachable, title: "No route from eu")), panel: "counter")
            try await probes[1].deck.push(.loaded(Info(summary: "fine")), panel: "counter")

            // Each probe may report its first load before the result pushed to it: wait for both pushed results.
            let state = try #require(try await Self.counter(on: leader) { state in
                let locations = state.locations ?? []
                return locations.count == 3 && locations.contains { $0.name == "us-east" && $0.health == .up }
                    && locations.contains { $0.name == "eu-west" && $0.health == .down }
            })
            #expect(state.locationsSummary == "Down from eu-west only")
            let euWest = try #require(state.locations?.first { $0.name == "eu-west" })
            #expect(euWest.health == .down && euWest.summary == "No route from eu")
            #expect(state.phase == .loaded, "the panel itself shows the leader's own result")

            reporting.forEach { $0.cancel() }
            reading.cancel()
            await leader.stop()
        }
    }

    @Test func aProbeThatStopsShowsNoDataAfterTheTimeoutNeverUp() async throws {
        try await TemporaryPostgres.with { store in
            let (leader, reading) = try await Self.leader(store: store.url, silence: .milliseconds(600))
            let probe = try Self.probe("eu-west", store: store.url)
            let reporting = Task { await probe.reporter.run(probe.deck) }
            try await probe.deck.push(.loaded(Info(summary: "fine")), panel: "counter")
            #expect(try await Self.counter(on: leader) { $0.locations?.last?.health == .up } != nil)
            // Still up while it reports, for longer than the timeout.
            try await Task.sleep(for: .milliseconds(900))
            #expect(try await leader.deck.panelState("counter").locations?.last?.health == .up)

            let stopped = Date()
            reporting.cancel()
            let silent = try #require(try await Self.counter(on: leader) { $0.locations?.last?.health == .noData })
            let location = try #require(silent.locations?.last)
            let lastReport = try #require(location.since, "since its last report")
            #expect(lastReport <= stopped.addingTimeInterval(0.05))
            #expect(Date().timeIntervalSince(lastReport) >= 0.6, "not before the timeout")
            #expect(location.summary == nil)
            #expect(silent.locationsSummary == "Up from local; no data from eu-west")

            reading.cancel()
            await leader.stop()
        }
    }

    /// A probe retired (silent for a day by default) is forgotten: its location leaves every
    /// panel, and the store.
    @Test func aProbeSilentPastTheHorizonIsForgotten() async throws {
        try await TemporaryPostgres.with { store in
            let (leader, reading) = try await Self.leader(store: store.url, silence: .milliseconds(300),
                                                          forgetAfter: .milliseconds(1_500))
            let probe = try Self.probe("eu-west", store: store.url)
            let reporting = Task { await probe.reporter.run(probe.deck) }
            try await probe.deck.push(.loaded(Info(summary: "fine")), panel: "counter")
            #expect(try await Self.counter(on: leader) { $0.locations?.last?.health == .up } != nil)
            reporting.cancel()
            #expect(try await Self.counter(on: leader) { $0.locations?.last?.health == .noData } != nil, "first: no data")
            #expect(try await eventually { try await leader.deck.panelState("counter").locations == nil },
                    "then no location but its own: the panel is checked from here only")
            let session = try PostgresConnection(store.url)
            #expect(try session.query("SELECT count(*) FROM statedeck_probe_results").integer(0, 0) == 0)
            reading.cancel()
            await leader.stop()
        }
    }

    @Test func eachLocationsUptimeIsItsShareOfTimeUpBetweenResults() async throws {
        try await TemporaryPostgres.with { store in
            let (leader, reading) = try await Self.leader(store: store.url)
            let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))
            let probe = try Self.probe("eu-west", store: store.url, now: { time.current })
            try await probe.deck.push(.loaded(Info(summary: "fine")), panel: "counter")
            time.withLock { $0 += 3 }
            try await probe.deck.push(.error(PanelError(.timeout)), panel: "counter")
            time.withLock { $0 += 1 }
            try await probe.deck.push(.loaded(Info(summary: "fine again")), panel: "counter")
            let reporting = Task { await probe.reporter.run(probe.deck) }

            let state = try #require(try await Self.counter(on: leader) { $0.locations?.last?.summary == "fine again" })
            let euWest = try #require(state.locations?.last)
            #expect(euWest.uptime == 75)
            #expect(euWest.since == Date(timeIntervalSince1970: 1_800_000_004), "up again since the last result")
            let local = try #require(state.locations?.first)
            #expect(local.name == "local" && local.health == .up)

            reporting.cancel()
            reading.cancel()
            await leader.stop()
        }
    }
}
