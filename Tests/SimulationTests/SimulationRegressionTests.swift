import Testing
@testable import StateDeckSimulation

/// The defects the simulation found in the history and the notifier, each as the shortest steps
/// of the seed that found it (they failed before the fix): a user's year that bent a number.
@MainActor
@Suite(.serialized) struct SimulationRegressionTests {
    /// Runs `steps` in a world of `panels` panels and records every divergence found.
    private func expectHolds(panels: Int = 2, _ steps: [SimulationStep],
                             sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let found = try await Simulator(Scenario(seed: 1, panelCount: panels, steps: steps)).run()
        #expect(found.isEmpty, "\(found.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// The wall clock ten days ahead for a while and back: retention ran at the jumped time and
    /// deleted the hour before it.
    @Test func aWallClockSetForwardForAWhileAndBackDeletesNothing() async throws {
        try await expectHolds([
            .pass(.seconds(3_600)), .jump(.seconds(864_000)), .pass(.seconds(90)), .jump(.seconds(-864_000)),
            .pass(.seconds(3_600)), .check,
        ])
    }

    /// Thirty minutes back: the new watch counted the half hour again, an hour's slot held 90 min.
    @Test func aWallClockSetBackCountsNoInstantTwice() async throws {
        try await expectHolds([.pass(.seconds(3_600)), .jump(.seconds(-1_800)), .pass(.seconds(3_600)), .check])
    }

    /// Seed 1: a panel removed went on counting in its last health, and came back with the time
    /// it was away counted up.
    @Test func aRemovedPanelStopsCountingAndComesBackAsANewWatch() async throws {
        try await expectHolds(panels: 4, [.remove(panel: 0), .pass(.seconds(826)), .add(panel: 0), .check])
    }

    /// Removed while down and added back healthy: its outage was remembered by position and its
    /// recovery told.
    @Test func aPanelRemovedWhileDownAndAddedBackHealthyIsToldNoRecovery() async throws {
        try await expectHolds([
            .pass(.seconds(3_600)), .source(panel: 0, up: false), .pass(.seconds(600)), .remove(panel: 0),
            .source(panel: 0, up: true), .pass(.seconds(3_600)), .add(panel: 0), .pass(.seconds(600)), .check,
        ])
    }

    /// Seed 12: a failure sent while the disk was full, its ledger write lost; a stop that could
    /// not save, and the next run told the same outage again.
    @Test func aFailureTheLedgerCannotKeepIsNotToldTwice() async throws {
        try await expectHolds(panels: 4, [
            .disk(full: true), .source(panel: 0, up: false), .pass(.seconds(458)), .restart, .pass(.seconds(1_375)), .check,
        ])
    }

    /// A `kill -9` mid-outage loses only what came after the last commit, and tells nothing twice.
    @Test func aKillMidOutageKeepsTheUptimeAndTellsNothingTwice() async throws {
        try await expectHolds([
            .pass(.seconds(3_600)), .source(panel: 0, up: false), .pass(.seconds(1_830)), .kill, .pass(.seconds(3_600)), .check,
            .source(panel: 0, up: true), .pass(.seconds(3_600)), .check,
        ])
    }
}
