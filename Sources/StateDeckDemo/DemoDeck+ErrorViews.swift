import Locking
import StateDeck

extension DemoDeck {
    /// Seed 002: the universal error view, one panel per case of the article, each with the
    /// buttons its view model offers. A panel recovers once its recovery option worked.
    static func errorViews(seed: UInt64) -> [Panel] {
        [
            failing("connection", "Connectivity", seed: seed) { recover in
                PanelError(.noNetwork, recoveryOptions: [
                    .custom("check-connection", "Check connection", role: .primary) { try await recover(0.6) },
                ])
            },
            failing("backend", "Backend status", seed: seed) { recover in
                PanelError(.serverMaintenance, detail: "HTTP 503, Retry-After: 20",
                           retryAfter: .seconds(20), recoveryOptions: [
                    .custom("refresh-status", "Refresh backend status", role: .primary) { try await recover(0.5) },
                ])
            },
            failing("orders", "Orders API", seed: seed) { _ in
                PanelError(.serverError, detail: "HTTP 500 Internal Server Error")
            },
            failing("app-version", "App version", seed: seed) { recover in
                PanelError(.updateAvailable, recoverySuggestion: "Version 2.4 adds offline mode.", recoveryOptions: [
                    .custom("update", "Update now", role: .primary) { try await recover(1) },
                ])
            },
            failing("app-version-required", "App version (old client)", seed: seed) { recover in
                PanelError(.updateRequired, recoverySuggestion: "Version 1.x stopped working on 1 November.",
                           recoveryOptions: [.custom("update", "Update now", role: .primary) { try await recover(1) }])
            }.recovery(),
        ]
    }

    /// A panel that fails with `error` until a recovery option (or, for transient kinds, a retry)
    /// brings it back; it falls again now and then while refreshing.
    ///
    /// `error` receives `recover(chance)`: the handler its recovery options run, which works with
    /// that chance and otherwise throws, so the failure toast shows.
    static func failing(
        _ id: String, _ title: String, seed: UInt64,
        error: (_ recover: @escaping @Sendable (Double) async throws -> Void) -> PanelError
    ) -> Panel {
        let simulation = Simulation(seed: seed, panel: id)
        let healthy = Locked(false)
        let failure = error { chance in
            try await simulation.latency(700...1_500)
            guard simulation.chance(chance) else {
                throw PanelError(.unknown, title: "Still failing", message: "That didn't help this time. Try once more.")
            }
            healthy.withLock { $0 = true }
        }
        return Panel(id, title: title) {
            try await simulation.latency(300...900)
            let up = healthy.withLock { up in
                if up, simulation.chance(0.2) { up = false }
                if !up, failure.kind.isRetryable, simulation.chance(0.35) { up = true }
                return up
            }
            guard up else { throw failure }
            return Info(summary: "All good", fields: [Info.Field("Checked", "just now"), demoField("002")])
        }
        .refresh(every: .seconds(30))
        .retry(.none)
    }
}
