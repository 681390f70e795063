import Locking
import StateDeck
import StateDeckDemo
import StateDeckServer

/// Where a served deck comes from: the built-in demo, or a deck file.
public enum DeckLoader {
    /// The demo deck. Its one real panel reads this server's own health once `server` holds the
    /// running server: read in the process rather than by an http source asking the server's own
    /// `/api/state`, whose first request would map libcurl and the TLS libraries it brings
    /// (5.6 MiB, docs/PERFORMANCE-FINDINGS.md, finding d) to learn what the process knows.
    public static func demo(seed: UInt64?, server: Locked<DeckServer?>) -> Deck {
        let started = ContinuousClock.now
        return DemoDeck.make(seed: seed) {
            guard let server = server.current else {
                throw PanelError(.unreachable, message: "StateDeck is not serving yet.")
            }
            return server.health(upFor: started.duration(to: .now))
        }
    }
}
