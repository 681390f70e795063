import Locking
import StateDeck

extension DemoDeck {
    /// The universal error view: one error card configuration for every failure, one panel per
    /// kind (no network, server maintenance, server error, update available, update required),
    /// each with the buttons that kind offers. A panel recovers once its recovery option worked.
    static func errorViews(seed: UInt64) -> [Panel] {
        [
            failing("connection", "Connectivity", "Universal error view: no network", seed: seed) { recover in
                PanelError(.noNetwork, recoveryOptions: [
                    .custom("check-connection", "Check connection", role: .primary) { try await recover(0.6) },
                ])
            },
            failing("backend", "Backend status", "Universal error view: server maintenance", seed: seed) { recover in
                PanelError(.serverMaintenance, detail: "HTTP 503, Retry-After: 20",
                           retryAfter: .seconds(20), recoveryOptions: [
                    .custom("refresh-status", "Refresh backend status", role: .primary) { try await recover(0.5) },
                ])
            },
            failing("orders", "Orders API", "Universal error view: server error", seed: seed) { _ in
                PanelError(.serverError, detail: "HTTP 500 Internal Server Error")
            },
            failing("app-version", "App version", "Universal error view: update available", seed: seed) { recover in
                PanelError(.updateAvailable, recoverySuggestion: "Version 2.4 adds offline mode.", recoveryOptions: [
                    .custom("update", "Update now", role: .primary) { try await recover(1) },
                ])
            },
            failing("app-version-required", "App version (old client)", "Universal error view: update required",
                    seed: seed) { recover in
                PanelError(.updateRequired, recoverySuggestion: "Version 1.x stopped working on 1 November.",
                           recoveryOptions: [.custom("update", "Update now", role: .primary) { try await recover(1) }])
            }.recovery(),
        ]
    }

    /// A panel that fails with `error` until a recovery option (or, for transient kinds, a retry)
    /// brings it back; it falls again now and then while refreshing. Its info says it demonstrates
    /// `demonstrates`.
    ///
    /// `error` receives `recover(chance)`: the handler its recovery options run, which works with
    /// that chance and otherwise throws, so the failure toast shows.
    static func failing(
        _ id: String, _ title: String, _ demonstrates: String, seed: UInt64,
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
            return Info(summary: "All good", fields: [Info.Field("Checked", "just now"), demoField(demonstrates)])
        }
        .refresh(every: .seconds(30))
        .retry(.none)
    }
}
