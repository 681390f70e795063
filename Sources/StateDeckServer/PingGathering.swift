import Locking
import StateDeck

/// Hands pings to their deck gathered: those that arrive while the deck takes earlier ones, and
/// while pings come fast those within ``window`` of the first, go together in one turn of its actor
/// (``Deck/ping(_:)``), so a deck pinged thousands of times a second is not hopped onto once a
/// ping, nor a task made and a thread woken for each. Each ping's outcome is told once the deck
/// took it, as ``Deck/ping(panel:_:body:)`` would return it; pings of one deck are taken in the
/// order they came.
final class PingGathering: Sendable {
    /// How long the first ping waits for others when the line was handed over less than this ago:
    /// at 10,000 pings a second, a turn takes about ten. A ping that comes alone goes at once,
    /// since a timer would cost it more than a turn of its own.
    static let window = Duration.milliseconds(1)

    private struct Waiting {
        let deck: Deck
        let ping: Ping
        let taken: @Sendable (Result<Void, DeckError>) -> Void
    }

    private struct Line {
        var waiting: [Waiting] = []
        /// Whether a task hands the line over; it ends once it finds the line empty.
        var handing = false
        /// When the last task found the line empty.
        var handedOver: ContinuousClock.Instant?
    }

    private let line = Locked(Line())

    /// Has `deck` take `ping` with the others waiting, then calls `taken` with its outcome (on the
    /// task that handed it over).
    func ping(_ ping: Ping, on deck: Deck, then taken: @escaping @Sendable (Result<Void, DeckError>) -> Void) {
        let start = line.withLock { line -> (waits: Bool, starts: Bool) in
            line.waiting.append(Waiting(deck: deck, ping: ping, taken: taken))
            defer { line.handing = true }
            return (line.handedOver.map { .now - $0 < Self.window } ?? false, !line.handing)
        }
        guard start.starts else { return }
        Task {
            if start.waits { try? await Task.sleep(for: Self.window) }
            await handOver()
        }
    }

    /// Hands what waits to the decks, a run of one deck's pings at a time, until nothing waits.
    private func handOver() async {
        while true {
            let waiting = line.withLock { line in
                defer { line.waiting = [] }
                line.handing = !line.waiting.isEmpty
                if !line.handing { line.handedOver = .now }
                return line.waiting
            }
            guard !waiting.isEmpty else { return }
            var start = waiting.startIndex
            while start < waiting.endIndex {
                let deck = waiting[start].deck
                let end = waiting[start...].firstIndex { $0.deck !== deck } ?? waiting.endIndex
                let outcomes = await deck.ping(waiting[start..<end].map(\.ping))
                for (one, outcome) in zip(waiting[start..<end], outcomes) { one.taken(outcome) }
                start = end
            }
        }
    }
}
