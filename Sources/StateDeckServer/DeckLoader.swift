import FoundationEssentials
import Locking
import StateDeck
import StateDeckDemo
import StateDeckSources

/// Where a served deck comes from: the built-in demo, or a deck file.
public enum DeckLoader {
    /// The demo deck. Its one real panel checks this server's own `/api/state` once `selfURL`
    /// holds the address it is served on.
    public static func demo(seed: UInt64?, selfURL: Locked<URL?>) -> Deck {
        DemoDeck.make(seed: seed) {
            guard let base = selfURL.current else {
                throw PanelError(.unreachable, message: "StateDeck is not serving yet.")
            }
            let source = HTTPSource(url: base.appendingPathComponent("api/state"), timeout: .seconds(2))
            let info = try await source.load()
            return Info(summary: "Serving at \(base.absoluteString)", fields: info.fields)
        }
    }
}
