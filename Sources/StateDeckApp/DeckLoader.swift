import Locking
import StateDeck
import StateDeckDemo
import StateDeckServer

/// Where a served deck comes from: the built-in demo, or a deck file.
public enum DeckLoader {
    /// The demo deck. Its one real panel, ``StateDeckPanel``, reads this server's own health once
    /// `server` holds the running server.
    public static func demo(seed: UInt64?, server: Locked<DeckServer?>) -> Deck {
        DemoDeck.make(seed: seed, itself: StateDeckPanel(server: server).makePanel())
    }
}
