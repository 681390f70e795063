import Locking
import StateDeck

extension DemoDeck {
    /// Retries with back-off: a feed whose server answers 500 a few times in a row is retried
    /// automatically first, with growing delays, and only when the retries are used up does the
    /// card show, offering Try again and Dismiss.
    static func feed(seed: UInt64) -> Panel {
        let simulation = Simulation(seed: seed, panel: "feed")
        let loads = Locked(0)
        return Panel("feed", title: "News feed") {
            try await simulation.latency(200...600)
            let load = loads.withLock { count in
                count += 1
                return count
            }
            // Every eighth load starts a run of four failures: more than the automatic retries.
            guard (load - 1) % 8 >= 4 else {
                throw PanelError(.serverError, failureReason: "The feed server answered 500.",
                                 detail: "GET /feed → HTTP 500 Internal Server Error")
            }
            return Info(
                summary: "\(3 + load % 5) new stories",
                fields: [demoField("Retries with back-off")],
                items: ["Swift 6.3 released", "Why toasts should be boring", "Designing error states"]
                    .enumerated().map { Info.Item(id: "story-\($0.offset)", title: $0.element) }
            )
        }
        .refresh(every: .seconds(25))
    }

    /// Recovery options on an error card: storage out of space offers Free space (which works) and
    /// Buy more space (which fails, so its failure toast shows).
    static func storage(seed: UInt64) -> Panel {
        let simulation = Simulation(seed: seed, panel: "storage")
        let freed = Locked(false)
        return Panel("storage", title: "Storage") {
            try await simulation.latency(300...800)
            guard freed.withLock({ $0 }) else {
                throw PanelError(.outOfSpace, failureReason: "The volume /data is 99 % full.",
                                 recoverySuggestion: "Free some space or buy more.",
                                 detail: "ENOSPC writing /data/cache/thumbs.db",
                                 recoveryOptions: [
                                    .freeSpace {
                                        try await simulation.latency(800...1_500)
                                        freed.withLock { $0 = true }
                                    },
                                    .buyMoreSpace {
                                        try await simulation.latency(300...600)
                                        throw PanelError(.unknown, title: "Purchase unavailable",
                                                         message: "The demo can't buy disk space. Try Free space.")
                                    },
                                 ])
            }
            return Info(summary: "42 % used", fields: [
                Info.Field("Free", "58 GB of 100 GB"), demoField("Recovery options on the error card"),
            ])
        }
        .retry(.none)
    }

    /// Minimum loading time: a request that answers at once is still shown loading for a minimum
    /// time, so the spinner appears for a steady moment instead of a flicker.
    static func minimumRequestTime(seed: UInt64) -> Panel {
        let simulation = Simulation(seed: seed, panel: "quick")
        return Panel("quick", title: "Minimum request time") {
            try await simulation.latency(1...15)
            return Info(summary: "Answered in under 15 ms, shown after 1.5 s",
                        fields: [Info.Field("Minimum loading time", "1.5 s"), demoField("Minimum loading time")])
        }
        .minimumLoadingTime(.milliseconds(1_500))
        .refresh(every: .seconds(12))
    }
}
