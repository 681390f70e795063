import Clocks
import FoundationEssentials
import Locking
import StateDeck

/// What lies outside the simulated StateDeck process and outlives it: the clocks, the panels'
/// sources, the notify target's receiver. Loaders and targets read it; the simulator sets it.
final class SimulatedWorld: Sendable {
    /// The wall clock's reading when the monotonic clock reads zero, before any jump.
    static let origin = Date(timeIntervalSince1970: 1_798_761_600)  // 2027-01-01T00:00:00Z

    /// The monotonic clock: every wait of the deck and the notifier, and the history's running time.
    let clock = TestClock<Duration>()
    /// How far the wall clock has been moved, in all.
    let wallOffset = Locked(Duration.zero)
    /// Whether each panel's source answers well.
    let sourcesUp: Locked<[Bool]>
    /// How the notify targets take deliveries.
    private let mood = Locked(SimulationStep.TargetMood.answering)
    /// What the hanging target holds: each delivery waits until it answers or fails again, or
    /// until its process ends.
    private let held = Locked<[(process: Int, release: CheckedContinuation<Void, Never>)]>([])
    /// The process running now; a target of an earlier one takes nothing.
    let liveProcess = Locked(0)
    let received = Locked<[SimulatedTarget.Received]>([])
    /// The events counted so far: the order of what happened at one instant.
    private let events = Locked(0)

    init(panelCount: Int) {
        sourcesUp = Locked(Array(repeating: true, count: panelCount))
    }

    /// Monotonic time since the simulation began.
    var elapsed: Duration {
        TestClock<Duration>.Instant().duration(to: clock.now)
    }

    /// The wall clock now.
    var wall: Date {
        Self.origin.addingTimeInterval((elapsed + wallOffset.current) / .seconds(1))
    }

    /// The next event's place in the order of everything that happened.
    func nextEvent() -> Int {
        events.withLock { events in
            events += 1
            return events
        }
    }

    /// The target takes deliveries as `mood` says from now on; what it held is answered or
    /// refused now, unless it still hangs.
    func setTarget(_ mood: SimulationStep.TargetMood) {
        self.mood.withLock { $0 = mood }
        guard mood != .hanging else { return }
        release { _ in true }
    }

    /// Lets go of what the target held for process `process`, which ended: its tasks end, and it
    /// hears nothing back.
    func processEnded(_ process: Int) {
        release { $0 == process }
    }

    private func release(_ matches: (Int) -> Bool) {
        let released = held.withLock { held in
            defer { held.removeAll { matches($0.process) } }
            return held.filter { matches($0.process) }
        }
        for delivery in released { delivery.release.resume() }
    }

    /// Panel `panel`'s load: its info, or a server error while its source fails.
    func load(_ panel: Int) throws -> Info {
        guard sourcesUp.current[panel] else { throw PanelError(.serverError, message: "p\(panel) answers 503") }
        return Info(summary: "p\(panel) answers")
    }

    /// Takes `notifications` for target `target` from process `process`, or fails as the world
    /// says; a hanging target decides once it stops hanging. A process gone hears nothing back.
    func receive(_ notifications: [DeckNotification], by target: String, from process: Int) async throws {
        // Its place is when it reached the receiver: sent before a panel's removal, it was told then.
        let order = nextEvent()
        if mood.current == .hanging {
            await withCheckedContinuation { release in held.withLock { $0.append((process, release)) } }
        }
        guard process == liveProcess.current else { throw CancellationError() }
        let (failing, arrived) = (mood.current == .failing, elapsed)
        received.withLock { received in
            received += notifications.map {
                SimulatedTarget.Received(event: $0.event, panel: $0.panel, target: target,
                                         at: $0.at.millisecondsSince1970, arrived: arrived, order: order, answered: nextEvent(),
                                         delivered: !failing,
                                         toldWholeOutage: $0.event == .recovery && $0.error != nil)
            }
        }
        if failing { throw PanelError(.serverError, message: "the receiver answers 500") }
    }
}
