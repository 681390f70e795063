import FoundationEssentials

/// Runs seeds one after another and reports each that fails with its shortest failing steps.
public enum SimulationRun {
    /// A seed that failed: its divergences and the shortest steps that still fail.
    public struct Failure: Sendable {
        public var seed: UInt64
        public var divergences: [Divergence]
        public var shortest: Scenario
        /// What the shortest steps give.
        public var shortestDivergences: [Divergence]

        /// The seed, what diverged, and the steps to replay it.
        public var report: String {
            var lines = ["seed \(seed) diverged (replay: make sim SEED=\(seed)):"]
            lines += divergences.prefix(10).map { "  \($0)" }
            if divergences.count > 10 { lines.append("  … and \(divergences.count - 10) more") }
            lines.append("shortest failing steps (\(shortest.steps.count) of the seed's):")
            lines += shortest.steps.enumerated().map { "  \($0.offset). \($0.element)" }
            lines.append("which give:")
            lines += shortestDivergences.prefix(5).map { "  \($0)" }
            return lines.joined(separator: "\n")
        }
    }

    /// What a run of seeds covered.
    public struct Summary: Sendable {
        public var seeds = 0
        public var simulatedDays = 0.0
        public var failures: [Failure] = []
    }

    /// Runs the scenario of each of `seeds` (of `days` simulated days each) with `configuration`,
    /// shrinking each failure for the kind of its first divergence, or of its first whose finding
    /// holds `focus`; `progress` hears every seed's outcome.
    @MainActor
    public static func run(
        seeds: some Sequence<UInt64>, days: Int, configuration: Simulator.Configuration = Simulator.Configuration(),
        shrinks: Bool = true, focus: String? = nil, progress: (UInt64, [Divergence]) -> Void = { _, _ in }
    ) async throws -> Summary {
        var summary = Summary()
        for seed in seeds {
            let scenario = Scenario(seed: seed, days: days)
            let divergences = try await Simulator(scenario, configuration: configuration).run()
            summary.seeds += 1
            summary.simulatedDays += scenario.simulatedDays
            progress(seed, divergences)
            guard !divergences.isEmpty else { continue }
            let kind = (focus.flatMap { focus in divergences.first { $0.finding.contains(focus) } } ?? divergences[0]).kind
            let shortest = shrinks
                ? await Shrinker { candidate in
                    ((try? await Simulator(candidate, configuration: configuration).run()) ?? []).contains { $0.kind == kind }
                }.shrink(scenario)
                : scenario
            let shortestDivergences = shrinks ? try await Simulator(shortest, configuration: configuration).run() : divergences
            summary.failures.append(Failure(seed: seed, divergences: divergences, shortest: shortest,
                                            shortestDivergences: shortestDivergences))
        }
        return summary
    }
}

extension Scenario {
    /// The days of time passing it holds (jumps of the wall clock are not time that passed).
    public var simulatedDays: Double {
        steps.reduce(0.0) { days, step in
            if case .pass(let duration) = step { days + duration / .seconds(86_400) } else { days }
        }
    }
}
