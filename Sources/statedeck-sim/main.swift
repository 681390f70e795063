import FoundationEssentials
import StateDeckSimulation

#if canImport(Glibc)
import Glibc
#endif

/// `statedeck-sim`: runs seeds of the deterministic simulation and reports what diverged.
///
///     statedeck-sim [--seeds N] [--first S] [--seed S] [--days D] [--store postgres://…] [--shrink no]
///                   [--shrink-for TEXT]
///
/// `--seeds N` runs seeds S, S+1, … (from `--first`, 1 by default); `--seed S` replays one seed
/// and prints its steps; `--shrink-for TEXT` shrinks for the first divergence whose finding holds
/// TEXT ("moment", "changes", "recovery"), not the first found. Exits 1 when a seed diverged, 2 on
/// bad arguments.
@MainActor
func main() async -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var seeds = 1_000
    var first: UInt64 = 1
    var single: UInt64?
    var days = 30
    var configuration = Simulator.Configuration()
    var shrinks = true
    var focus: String?
    while !arguments.isEmpty {
        let flag = arguments.removeFirst()
        guard let value = arguments.first else {
            print("statedeck-sim: \(flag) needs a value")
            return 2
        }
        arguments.removeFirst()
        switch flag {
        case "--seeds": seeds = Int(value) ?? -1
        case "--first": first = UInt64(value) ?? 0
        case "--seed": single = UInt64(value)
        case "--days": days = Int(value) ?? -1
        case "--store": configuration.store = .postgres(url: value)
        case "--shrink": shrinks = value != "no"
        case "--shrink-for": focus = value
        default:
            print("statedeck-sim: unknown flag \(flag) (flags: --seeds N, --first S, --seed S, --days D, --store URL, --shrink no, "
                + "--shrink-for TEXT)")
            return 2
        }
        guard seeds > 0, days > 0, first > 0 else {
            print("statedeck-sim: \(flag) \(value) is not a positive whole number")
            return 2
        }
    }
    if let single {
        let scenario = Scenario(seed: single, days: days)
        print("seed \(single): \(scenario.panelCount) panels, \(scenario.steps.count) steps")
        for (index, step) in scenario.steps.enumerated() { print("  \(index). \(step)") }
    }
    let chosen: [UInt64] = single.map { [$0] } ?? Array(first..<first + UInt64(seeds))
    let started = ContinuousClock.now
    do {
        let summary = try await SimulationRun.run(seeds: chosen, days: days, configuration: configuration,
                                                  shrinks: shrinks, focus: focus) { seed, divergences in
            if !divergences.isEmpty { print("seed \(seed): \(divergences.count) divergences; shrinking") }
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        for failure in summary.failures { print(failure.report) }
        print("""
            \(summary.seeds) seeds, \(Int(summary.simulatedDays.rounded())) simulated days in \(Int(seconds.rounded())) s \
            (\((summary.simulatedDays / seconds * 10).rounded() / 10) days a second): \
            \(summary.failures.isEmpty ? "every number held" : "\(summary.failures.count) seeds diverged")
            """)
        return summary.failures.isEmpty ? 0 : 1
    } catch {
        print("statedeck-sim: \(error)")
        return 2
    }
}

exit(await main())
