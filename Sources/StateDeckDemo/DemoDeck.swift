import StateDeck

/// The built-in deck served without `--config`: one panel per loading, error and toast case
/// StateDeck handles, each saying what it demonstrates, with simulated latency and failures
/// (labelled as such); a Postgres that two of them depend on, under a nightly maintenance window;
/// a heartbeat panel that whoever runs the demo pings; and one real panel, StateDeck's own health.
public enum DemoDeck {
    /// The deck's title says the data is simulated.
    public static let title = "StateDeck demo · simulated data"

    /// The demo deck. `seed` makes every panel's story repeatable; `itself` is the real panel,
    /// drawn first; `vacuum` is when Postgres's nightly maintenance window comes back
    /// (``vacuumSchedule``, for ``vacuumDuration``); the backup job pings ``backupId`` at
    /// `backupPingPath`.
    public static func make(seed: UInt64?, itself: Panel, vacuum: MaintenanceWindow.Recurrence,
                            backupPingPath: String) -> Deck {
        let seed = seed ?? UInt64.random(in: 0...UInt64.max)
        let database = DemoDatabase(dependents: ["profile", "rating"])
        let deck = Deck(title, maintenance: [vacuumWindow(vacuum)]) {
            itself
            Group("operations", title: "Dependencies, maintenance and heartbeats") {
                postgres(seed: seed, database: database, vacuum: vacuum)
                backup(pingPath: backupPingPath)
            }
            Group("loading", title: "Loading") {
                photoDownload(seed: seed)
                minimumRequestTime(seed: seed)
                profile(seed: seed, database: database)
                presentations(seed: seed)
            }
            Group("errors", title: "Errors and recovery") {
                errorViews(seed: seed)
                feed(seed: seed)
                storage(seed: seed)
            }
            Group("actions", title: "Lists and actions") {
                movieRating(seed: seed, database: database)
                removableList(seed: seed)
            }
        }
        database.serve(deck)
        return deck
    }

    /// The field every simulated panel carries: what the panel demonstrates, and that its data is
    /// simulated, so nobody mistakes it for a real service.
    static func demoField(_ demonstrates: String) -> Info.Field {
        Info.Field("Demonstrates", "\(demonstrates) · simulated")
    }
}
