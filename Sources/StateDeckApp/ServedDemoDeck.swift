import Locking
import StateDeck
import StateDeckDemo
import StateDeckServer

/// The built-in demo deck as `statedeck` serves it without a deck file: the demo's simulated
/// panels, and StateDeck's own panel, which reads the server running it.
public enum ServedDemoDeck {
    /// The demo deck. Its one real panel, ``StateDeckPanel``, reads this server's own health once
    /// `server` holds the running server.
    public static func make(seed: UInt64?, server: Locked<DeckServer?>) -> Deck {
        DemoDeck.make(seed: seed, itself: StateDeckPanel(server: server).makePanel())
    }
}
