import StateDeck

/// The built-in deck served without `--config`: one panel per loading, error and toast case
/// StateDeck handles, each saying what it demonstrates, with simulated latency and failures
/// (labelled as such), plus one real panel, StateDeck's own health.
public enum DemoDeck {
    /// The deck's title says the data is simulated.
    public static let title = "StateDeck demo · simulated data"

    /// The demo deck. `seed` makes every panel's story repeatable; `itself` is the real panel,
    /// drawn first.
    public static func make(seed: UInt64?, itself: Panel) -> Deck {
        let seed = seed ?? UInt64.random(in: 0...UInt64.max)
        return Deck(title) {
            itself
            Group("loading", title: "Loading") {
                photoDownload(seed: seed)
                minimumRequestTime(seed: seed)
                profile(seed: seed)
                presentations(seed: seed)
            }
            Group("errors", title: "Errors and recovery") {
                errorViews(seed: seed)
                feed(seed: seed)
                storage(seed: seed)
            }
            Group("actions", title: "Lists and actions") {
                movieRating(seed: seed)
                removableList(seed: seed)
            }
        }
    }

    /// The field every simulated panel carries: what the panel demonstrates, and that its data is
    /// simulated, so nobody mistakes it for a real service.
    static func demoField(_ demonstrates: String) -> Info.Field {
        Info.Field("Demonstrates", "\(demonstrates) · simulated")
    }
}
