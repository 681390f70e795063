import Locking
import StateDeck

extension DemoDeck {
    static let movies = [
        ("arrival", "Arrival", "2016 · Denis Villeneuve"),
        ("paprika", "Paprika", "2006 · Satoshi Kon"),
        ("heat", "Heat", "1995 · Michael Mann"),
    ]

    /// Rating a movie. The toast says "Thanks for your rating!" or why it failed: the message
    /// comes from the action's outcome, not from the button that started it.
    static func movieRating(seed: UInt64) -> Panel {
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
            guard simulation.chance(0.75) else {
                throw PanelError(.serverError, title: "Rating not saved",
                                 message: "The ratings service didn't answer. Your rating was not saved.")
            }
            ratings.withLock { $0[itemId] = verdict }
            return info()
        }
        return Panel("rating", title: "Rate a movie") {
            try await simulation.latency(300...700)
            return info()
        }
        .itemAction("like", "👍 Liked it", role: .primary, message: "Thanks for your rating!") { try await rate($0, "👍") }
        .itemAction("dislike", "👎 Not for me", role: .secondary, message: "Thanks for your rating!") { try await rate($0, "👎") }
    }
}
