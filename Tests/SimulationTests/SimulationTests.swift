import Foundation
import Locking
import StateDeckHistory
import Testing
import TestSupport
@testable import StateDeckSimulation

/// The simulation itself: a seed is a world, a wrong number is caught and named by its seed.
@MainActor
@Suite(.serialized) struct SimulationTests {
    @Test func aSeedIsOneWorld() {
        #expect(Scenario(seed: 7, days: 3).steps == Scenario(seed: 7, days: 3).steps)
        #expect(Scenario(seed: 7, days: 3).steps != Scenario(seed: 8, days: 3).steps)
    }

    @Test func aWorldWithoutFaultsHoldsEveryNumber() async throws {
        let steps: [SimulationStep] = [
            .pass(.seconds(3_600)), .source(panel: 0, up: false), .pass(.seconds(5_400)), .check,
            .source(panel: 0, up: true), .pass(.seconds(20 * 3_600)), .check,
        ]
        #expect(try await Simulator(Scenario(seed: 1, panelCount: 2, steps: steps)).run() == [])
    }

    /// A process that ended lets its history go, stopped or killed: `make sim` starts thousands
    /// of them, and each one's files held open would run the process out of descriptors.
    @Test(arguments: [false, true]) func anEndedProcessLetsItsHistoryGo(killed: Bool) async throws {
        let folder = "\(FileManager.default.temporaryDirectory.path)/statedeck-sim-ended-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        weak var store: (any KeptHistoryStore)?
        do {
            let process = try await SimulatedProcess(number: 1, world: SimulatedWorld(panelCount: 2), file: SimulatedDeckFile(present: [0, 1]),
                                                     store: .sqlite(folder: folder), faults: Faults(), heard: Locked([]))
            store = process.store
            await process.end(killed: killed)
        }
        #expect(store == nil)
    }

    /// The checker can fail: fed a model that counts up time as down, it reports the seed, what
    /// diverged, and steps that still fail.
    @Test func aWrongModelIsCaughtAndItsSeedNamed() async throws {
        var configuration = Simulator.Configuration()
        configuration.breaksModel = true
        let summary = try await SimulationRun.run(seeds: [3], days: 1, configuration: configuration)
        let failure = try #require(summary.failures.first)
        #expect(failure.seed == 3)
        #expect(failure.divergences.contains { $0.finding.contains("uptime") })
        #expect(failure.report.hasPrefix("seed 3 diverged (replay: make sim SEED=3):"))
        #expect(failure.shortest.steps.count < Scenario(seed: 3, days: 1).steps.count)
        #expect(failure.shortest.steps.last == .check)
    }
}
