import Locking
import StateDeck

extension DemoDeck {
    static let movies = [
        ("arrival", "Arrival", "2016 · Denis Villeneuve"),
        ("paprika", "Paprika", "2006 · Satoshi Kon"),
        ("heat", "Heat", "1995 · Michael Mann"),
    ]

    /// Rating a movie. The toast says "Thanks for your rating!" or why it failed: the message
    /// comes from the action's outcome, not from the button that started it. Ratings are kept in
    /// Postgres, so the panel fails while Postgres is down.
    static func movieRating(seed: UInt64, database: DemoDatabase) -> Panel {
        let simulation = Simulation(seed: seed, panel: "rating")
        let ratings = Locked<[String: String]>([:])
        let info: @Sendable () -> Info = {
            let rated = ratings.current
            return Info(
                summary: "Rate tonight's movies",
                fields: [demoField("Toasts from an action's outcome")],
                items: movies.map { id, title, subtitle in
                    Info.Item(id: id, title: title, subtitle: rated[id].map { "\(subtitle) · you said \($0)" } ?? subtitle)
                }
            )
        }
        let rate: @Sendable (String, String) async throws -> Info? = { itemId, verdict in
            try await simulation.latency(400...900)
            try database.query(failing: PanelError(.serverError, title: "Rating not saved",
                                                   message: "The ratings service can't reach its database. Your rating was not saved."))
            guard simulation.chance(0.75) else {
                throw PanelError(.serverError, title: "Rating not saved",
                                 message: "The ratings service didn't answer. Your rating was not saved.")
            }
            ratings.withLock { $0[itemId] = verdict }
            return info()
        }
        return Panel("rating", title: "Rate a movie") {
            try await simulation.latency(300...700)
            try database.query(failing: PanelError(.serverError, failureReason: "The ratings service can't reach its database.",
                                                   detail: "GET /ratings → HTTP 503: no connection to postgres:5432"))
            return info()
        }
        .depends(on: postgresId)
        // Its failure with Postgres shows at once: what it demonstrates there is the probable cause.
        .retry(.none)
        .itemAction("like", "👍 Liked it", role: .primary, message: "Thanks for your rating!") { try await rate($0, "👍") }
        .itemAction("dislike", "👎 Not for me", role: .secondary, message: "Thanks for your rating!") { try await rate($0, "👎") }
    }
}
