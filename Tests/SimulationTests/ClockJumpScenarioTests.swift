import Testing
@testable import StateDeckSimulation

/// The wall clock set back or forward early in a run, where the history has saved little or
/// nothing yet: time lived after a jump is counted once, time not lived yet is counted nowhere,
/// and time counted before a jump stays counted. Each is a shortest failing run the simulation found.
@MainActor
@Suite(.serialized) struct ClockJumpScenarioTests {
    private func divergences(_ panelCount: Int, _ steps: [SimulationStep]) async throws -> [Divergence] {
        try await Simulator(Scenario(seed: 1, panelCount: panelCount, steps: steps)).run()
    }

    /// Set back before the first save: the seconds lived after the jump, at instants no watch
    /// counted, are counted.
    @Test func timeLivedAfterAJumpBackBeforeTheFirstSaveIsCounted() async throws {
        #expect(try await divergences(3, [.jump(.seconds(-186)), .pass(.seconds(16)), .check]) == [])
        #expect(try await divergences(3, [.jump(.seconds(-3_640)), .pass(.seconds(94)), .check]) == [])
        #expect(try await divergences(4, [.jump(.seconds(-86_149)), .pass(.seconds(90)), .check]) == [])
    }

    /// Set back a few seconds after the first save: the minutes lived after the jump are counted.
    @Test func timeLivedAfterAJumpBackRightAfterTheFirstSaveIsCounted() async throws {
        #expect(try await divergences(3, [.jump(.seconds(-1_147)), .pass(.seconds(372)), .check]) == [])
    }

    /// Set back with no time passed since: no bucket of the new timeline holds time, for nothing
    /// was lived there yet.
    @Test func nothingIsCountedAfterAJumpBackBeforeTimePasses() async throws {
        #expect(try await divergences(3, [.pass(.seconds(29)), .pass(.seconds(475)), .jump(.seconds(-8_455)), .check]) == [])
    }

    /// A panel removed, then the clock set back: nothing is credited at instants not lived again.
    @Test func nothingIsCountedAfterARemovalAndAJumpBack() async throws {
        #expect(try await divergences(5, [.remove(panel: 2), .jump(.seconds(-37_215)), .check]) == [])
    }

    /// Killed, then the clock set back in the new process: nothing is credited at instants not
    /// lived again.
    @Test func nothingIsCountedAfterAKillAndAJumpBack() async throws {
        #expect(try await divergences(3, [.pass(.seconds(109)), .kill, .jump(.seconds(-4_573)), .check]) == [])
    }

    /// Set forward shortly after the start: the seconds before the jump stay counted in their hour.
    @Test func timeBeforeAJumpForwardStaysCounted() async throws {
        #expect(try await divergences(3, [.pass(.seconds(49)), .jump(.seconds(65_084)), .check]) == [])
    }
}
