import Testing
@testable import StateDeckSimulation

@MainActor
@Suite(.serialized) struct SimulationTests {
    @Test func aSeedReplaysStepForStep() {
        #expect(Scenario(seed: 7, days: 3).steps == Scenario(seed: 7, days: 3).steps)
        #expect(Scenario(seed: 7, days: 3).steps != Scenario(seed: 8, days: 3).steps)
    }

    @Test func aWorldWithoutFaultsHoldsEveryNumber() async throws {
        let steps: [SimulationStep] = [
            .pass(.seconds(3_600)), .source(panel: 0, up: false), .pass(.seconds(5_400)), .check,
            .source(panel: 0, up: true), .pass(.seconds(20 * 3_600)), .check,
        ]
        let divergences = try await Simulator(Scenario(seed: 1, panelCount: 2, steps: steps)).run()
        #expect(divergences == [])
    }
}
