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
    let targetFailing = Locked(false)
    /// The process running now; a target of an earlier one takes nothing.
    let liveProcess = Locked(0)
    let received = Locked<[SimulatedTarget.Received]>([])

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

    /// Panel `panel`'s load: its info, or a server error while its source fails.
    func load(_ panel: Int) throws -> Info {
        guard sourcesUp.current[panel] else { throw PanelError(.serverError, message: "p\(panel) answers 503") }
        return Info(summary: "p\(panel) answers")
    }

    /// Takes `notifications` from process `process`'s target, or fails as the world says.
    func receive(_ notifications: [DeckNotification], from process: Int) throws {
        guard process == liveProcess.current else { throw CancellationError() }
        let (failing, arrived) = (targetFailing.current, elapsed)
        received.withLock { received in
            received += notifications.map {
                SimulatedTarget.Received(event: $0.event, panel: $0.panel, arrived: arrived, delivered: !failing,
                                         toldWholeOutage: $0.event == .recovery && $0.error != nil)
            }
        }
        if failing { throw PanelError(.serverError, message: "the receiver answers 500") }
    }
}
