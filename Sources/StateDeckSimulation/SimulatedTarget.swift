import FoundationEssentials
import Locking
import StateDeck

/// One of the two notify targets a simulated panel's `notify:` may list: it answers at once, fails
/// or hangs as the world says, and keeps what it was told. A target of a killed process takes
/// nothing more (a process gone sends nothing).
final class SimulatedTarget: NotificationTarget {
    /// A notification as the receiver got it, or refused it: for the checker, on the model's clock.
    struct Received: Sendable {
        var event: DeckNotification.Event
        var panel: String
        /// The target's name: each of a panel's targets is told its outages apart.
        var target: String
        /// The wall time it was decided for (a recovery waiting for a window's end: when the panel
        /// came back), in milliseconds since 1970.
        var at: Int64
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

    /// The targets a deck file's `notify:` may list, by number.
    static let names = ["a", "b"]

    let name: String
    private let world: SimulatedWorld
    private let process: Int

    /// Target `number` of ``names``, of process `process`.
    init(_ number: Int, world: SimulatedWorld, process: Int) {
        name = "webhook \(Self.names[number])"
        self.world = world
        self.process = process
    }

    func deliver(_ notification: DeckNotification) async throws {
        try await world.receive([notification], by: name, from: process)
    }

    func deliver(_ gathered: GatheredNotification) async throws {
        try await world.receive(gathered.notifications, by: name, from: process)
    }
}
