import Testing
@testable import StateDeckSimulation

/// The wall clock set forward for a while and back (an excursion) that starts at the instant of a
/// load: the second panel's next load falls in the excursion after its last save, and waits in the
/// queue until the save at the jump back. Each day and hour holds the time lived in it once, and
/// no more than it spans.
@MainActor
@Suite(.serialized) struct ExcursionScenarioTests {
    private func divergences(_ steps: [SimulationStep]) async throws -> [Divergence] {
        try await Simulator(Scenario(seed: 1, panelCount: 2, steps: steps)).run()
    }

    /// An hour ahead for 90 s, from the load at 10 min: the excursion lies in the same day.
    @Test func anHourAheadFromALoadCountsEachInstantOnce() async throws {
        #expect(try await divergences([.pass(.seconds(600)), .jump(.seconds(3_600)), .pass(.seconds(90)),
                                       .jump(.seconds(-3_600)), .pass(.seconds(600)), .check]) == [])
    }

    /// Ten days ahead for 90 s, from the load at 1 h: the day left holds its own time alone, checked
    /// at once after the jump back and after 10 min more.
    @Test func tenDaysAheadFromALoadCountsEachInstantOnce() async throws {
        let ahead = SimulationStep.jump(.seconds(864_000)), back = SimulationStep.jump(.seconds(-864_000))
        #expect(try await divergences([.pass(.seconds(3_600)), ahead, .pass(.seconds(90)), back, .check]) == [])
        #expect(try await divergences([.pass(.seconds(3_600)), ahead, .pass(.seconds(90)), back, .pass(.seconds(600)),
                                       .check]) == [])
    }
}
