import Locking
import StateDeck

extension DemoDeck {
    /// A redacted placeholder: a user profile drawn as a skeleton of its placeholder until it
    /// loads. It is read from Postgres, so it fails while Postgres is down.
    static func profile(seed: UInt64, database: DemoDatabase) -> Panel {
        let simulation = Simulation(seed: seed, panel: "profile")
        return Panel("profile", title: "User profile") {
            try await simulation.latency(1_500...2_500)
            try database.query(failing: PanelError(.serverError, failureReason: "The profile service can't reach its database.",
                                                   detail: "GET /profile → HTTP 503: no connection to postgres:5432"))
            return Info(summary: "🦊 Ada Fox", fields: [
                Info.Field("Name", "Ada Fox"), Info.Field("Age", "36"),
                demoField("Redacted placeholder while loading"),
            ])
        }
        .placeholder(Info(summary: "🙂 Placeholder name", fields: [
            Info.Field("Name", "Placeholder"), Info.Field("Age", "99"),
            demoField("Redacted placeholder while loading"),
        ]))
        .presentation(initialLoading: .redacted)
        .refresh(every: .seconds(40))
        .depends(on: postgresId)
        // Its failure with Postgres shows at once: what it demonstrates there is the probable cause.
        .retry(.none)
    }

    static let pokemon = ["Bulbasaur", "Charmander", "Squirtle", "Pikachu", "Eevee"]

    /// Item actions in a list: each item shows a spinner while its Remove runs (`modifyingIds`);
    /// a failed Remove leaves the item in place, and its toast says why.
    static func removableList(seed: UInt64) -> Panel {
        let simulation = Simulation(seed: seed, panel: "pokemon")
        let remaining = Locked(pokemon)
        let info: @Sendable () -> Info = {
            let names = remaining.current
            return Info(summary: "\(names.count) Pokémon",
                        fields: [demoField("Per-item spinner while an action runs")],
                        items: names.map { Info.Item(id: $0.lowercased(), title: $0) })
        }
        return Panel("pokemon", title: "Pokémon list") {
            try await simulation.latency(400...900)
            remaining.withLock { if $0.isEmpty { $0 = pokemon } }
            return info()
        }
        .itemAction("remove", "Remove", role: .destructive) { itemId in
            try await simulation.latency(900...1_400)
            guard simulation.chance(0.85) else {
                throw PanelError(.serverError, title: "Couldn't remove it", message: "The server refused. Try again.")
            }
            remaining.withLock { $0.removeAll { $0.lowercased() == itemId } }
            return info()
        }
    }

    /// Loading presentations: one panel per way of drawing loading (material, horizontal,
    /// vertical, over the current content, custom), shown while the panel refreshes its info.
    static func presentations(seed: UInt64) -> [Panel] {
        let shown: [(name: String, presentation: LoadingPresentation)] = [
            ("material", .material),
            ("horizontal", .horizontal(position: .leading, contentOpacity: 0.3, alignment: .center, spacing: 32)),
            ("vertical", .vertical(position: .bottom, contentOpacity: 0.5, alignment: .center)),
            ("over content", .overCurrentContent(contentOpacity: 0.5, alignment: .bottomTrailing)),
            ("custom", .custom(message: "Fetching the latest numbers…")),
        ]
        return shown.map { name, presentation in
            let id = "loading-" + name.split(separator: " ")[0]
            let simulation = Simulation(seed: seed, panel: id)
            return Panel(id, title: "Loading: \(name)") {
                try await simulation.latency(1_800...2_600)
                return Info(summary: "\(Int(simulation.unit() * 900) + 100) requests/min",
                            fields: [
                                Info.Field("Shown while refreshing", name), demoField("Loading presentation: \(name)"),
                            ])
            }
            .presentation(loadingAfterInfo: presentation)
            .refresh(every: .seconds(8))
        }
    }
}
