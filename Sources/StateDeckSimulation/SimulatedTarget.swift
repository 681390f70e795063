import FoundationEssentials
import Locking
import StateDeck

/// The notify target of every simulated panel: it answers at once, or fails while the world says
/// so, and keeps what it was told. A target of a killed process takes nothing more (a process
/// gone sends nothing).
final class SimulatedTarget: NotificationTarget {
    /// A notification as the receiver got it, or refused it: for the checker, on the model's clock.
    struct Received: Sendable {
        var event: DeckNotification.Event
        var panel: String
        /// The monotonic time it arrived (since the simulation began).
        var arrived: Duration
        /// Its place among the world's events (``SimulatedWorld/nextEvent()``) when it reached the
        /// receiver, however long the receiver took to answer; and when it answered.
        var order: Int
        var answered: Int
        /// False when the receiver failed it.
        var delivered: Bool
        /// A recovery told in place of its failure, which never went out: "P1 was down for 5 min
        /// (Server error) and is up again", with the outage's error.
        var toldWholeOutage = false
    }

    let name = "webhook simulated"
    private let world: SimulatedWorld
    private let process: Int

    init(world: SimulatedWorld, process: Int) {
        self.world = world
        self.process = process
    }

    func deliver(_ notification: DeckNotification) async throws {
        try await world.receive([notification], from: process)
    }

    func deliver(_ gathered: GatheredNotification) async throws {
        try await world.receive(gathered.notifications, from: process)
    }
}
