import Testing
import TestSupport
@testable import StateDeckSimulation

/// What the notify target receives while the history cannot be written (a full disk): a message
/// goes out only once the ledger has written it, as it goes out, so a kill repeats none; an outage
/// that ended while its failure waited is told whole, once.
@MainActor
@Suite(.serialized) struct NotificationScenarioTests {
    /// A failure held back for the full disk, whose panel comes back meanwhile, reaches the target
    /// once the disk has room as one recovery telling the whole outage, as a blip inside the
    /// gathering window does.
    @Test func aFailureHeldForTheLedgerAndItsRecoveryAreToldAsOneOutage() async throws {
        let steps: [SimulationStep] = [
            .source(panel: 1, up: false), .disk(full: true), .pass(.seconds(229)), .pass(.seconds(108)),
            .source(panel: 1, up: true), .pass(.seconds(259)), .disk(full: false), .pass(.seconds(68)), .check,
        ]
        for panelCount in [3, 4] {
            let simulator = Simulator(Scenario(seed: 1, panelCount: panelCount, steps: steps))
            #expect(try await simulator.run() == [], "\(panelCount) panels")
            #expect(Self.told(simulator) == ["p1 recovery of the whole outage at \(panelCount == 3 ? "611.0" : "603.5") seconds"])
        }
    }

    /// The same across a `kill -9` while the disk is full: the next run decides the failure
    /// again, holds it, and tells the outage whole once it ended.
    @Test func anOutageHeldAcrossAKillIsToldWholeOnceTheDiskHasRoom() async throws {
        let steps: [SimulationStep] = [
            .disk(full: true), .source(panel: 0, up: false), .kill, .source(panel: 0, up: true), .pass(.seconds(205)),
            .disk(full: false), .pass(.seconds(1_658)), .check,
        ]
        for panelCount in [3, 4] {
            let simulator = Simulator(Scenario(seed: 1, panelCount: panelCount, steps: steps))
            #expect(try await simulator.run() == [], "\(panelCount) panels")
            #expect(Self.told(simulator) == ["p0 recovery of the whole outage at 221.0 seconds"])
        }
    }

    /// The same when the deck file is edited while the failure is held: the next notifier carries
    /// it and tells the outage whole.
    @Test func anOutageHeldAcrossAnEditIsToldWholeOnceTheDiskHasRoom() async throws {
        let steps: [SimulationStep] = [
            .pass(.seconds(332)), .disk(full: true), .source(panel: 2, up: false), .pass(.seconds(32)),
            .source(panel: 2, up: true), .remove(panel: 0), .disk(full: false), .pass(.seconds(104)), .check,
        ]
        // Four panels: a load of p2 falls within its source's 32 s down.
        let simulator = Simulator(Scenario(seed: 1, panelCount: 4, steps: steps))
        #expect(try await simulator.run() == [])
        #expect(Self.told(simulator) == ["p2 recovery of the whole outage at 374.0 seconds"])
    }

    /// A failure kept before the disk filled, and carried to the notifier of the edited deck, is
    /// not sent while the disk is full (the write that forgets it once delivered would fail, and
    /// the run after a kill would tell it again); it goes once the disk has room, once.
    @Test func aFailureIsNotToldTwiceAcrossAKillWhileTheDiskIsFull() async throws {
        let steps: [SimulationStep] = [
            .source(panel: 3, up: false), .remove(panel: 2), .disk(full: true), .pass(.seconds(612)), .kill,
            .pass(.seconds(1_503)), .check, .disk(full: false), .pass(.seconds(60)), .check,
        ]
        let simulator = Simulator(Scenario(seed: 1, panelCount: 4, steps: steps))
        #expect(try await simulator.run() == [])
        #expect(Self.told(simulator) == ["p3 failure at 2123.0 seconds"], "once the disk has room, not again")
    }

    /// What the target received, one line each: "p1 recovery of the whole outage at 603.5 seconds".
    static func told(_ simulator: Simulator) -> [String] {
        simulator.received.map { received in
            "\(received.panel) \(received.event)\(received.toldWholeOutage ? " of the whole outage" : "")"
                + "\(received.delivered ? "" : " refused") at \(received.arrived)"
        }
    }
}
