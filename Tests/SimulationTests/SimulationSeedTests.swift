import Testing
import TestSupport
@testable import StateDeckSimulation

/// Seeds of the simulation, on both stores: each runs a world of faults against the model, and
/// every number must hold.
@MainActor
@Suite(.serialized) struct SimulationSeedTests {
    /// As many seeds as take about a minute on this machine in a debug build; `make sim` runs
    /// thousands on a release build.
    static let seeds: ClosedRange<UInt64> = 1...8
    static let days = 4

    /// Records what `summary` found: the reports of the seeds that diverged, each with the seed to
    /// replay (`make sim SEED=S` shrinks it and prints its steps).
    private func expectHeld(_ summary: SimulationRun.Summary) {
        #expect(summary.failures.map(\.seed) == [], "\(summary.failures.map(\.report).joined(separator: "\n\n"))")
    }

    @Test func seedsOfTheSQLiteStore() async throws {
        // Not shrunk here: `make sim SEED=S` shrinks the one that failed and prints its steps.
        let summary = try await SimulationRun.run(seeds: Self.seeds, days: Self.days, shrinks: false)
        #expect(summary.seeds == Self.seeds.count)
        expectHeld(summary)
    }

    @Test func seedsOfThePostgreSQLStore() async throws {
        let server = try await TemporaryPostgres()
        var configuration = Simulator.Configuration()
        configuration.store = .postgres(url: server.url)
        let outcome: Result<SimulationRun.Summary, any Error>
        do {
            outcome = .success(try await SimulationRun.run(seeds: 1...3, days: 2, configuration: configuration,
                                                          shrinks: false))
        } catch {
            outcome = .failure(error)
        }
        await server.remove()
        let summary = try outcome.get()
        #expect(summary.seeds == 3)
        expectHeld(summary)
    }
}
