/// Makes a failing scenario as short as it can while it still fails: drops halves, then quarters,
/// down to single steps (delta debugging), keeping every cut after which some divergence remains,
/// then joins passes of time side by side into one, and cuts again while that shortens it.
/// The steps left are the story of the defect.
public struct Shrinker: Sendable {
    /// Whether a scenario fails; a run of the simulator.
    public var fails: @MainActor (Scenario) async -> Bool

    public init(fails: @escaping @MainActor (Scenario) async -> Bool) {
        self.fails = fails
    }

    @MainActor
    public func shrink(_ scenario: Scenario) async -> Scenario {
        var shortest = await cut(scenario)
        while true {
            let joined = await joiningPasses(shortest)
            guard joined.steps.count < shortest.steps.count else { return shortest }
            shortest = await cut(joined)
        }
    }

    /// Delta debugging: the scenario with every chunk of steps it fails without cut out.
    @MainActor
    private func cut(_ scenario: Scenario) async -> Scenario {
        var shortest = scenario
        var chunk = max(1, shortest.steps.count / 2)
        while chunk >= 1 {
            var start = 0
            var cut = false
            while start < shortest.steps.count {
                var candidate = shortest
                candidate.steps.removeSubrange(start..<min(start + chunk, candidate.steps.count))
                // The last check stays: it is where the numbers are read.
                if candidate.steps.last != .check { candidate.steps.append(.check) }
                if candidate.steps.count < shortest.steps.count, await fails(candidate) {
                    shortest = candidate
                    cut = true
                } else {
                    start += chunk
                }
            }
            if !cut { chunk /= 2 }
        }
        return shortest
    }

    /// The scenario with each two passes side by side made one wherever it still fails: the same
    /// time in fewer steps, the checks read after it unmoved.
    @MainActor
    private func joiningPasses(_ scenario: Scenario) async -> Scenario {
        var shortest = scenario
        var index = 0
        while index + 1 < shortest.steps.count {
            if case .pass(let first) = shortest.steps[index], case .pass(let second) = shortest.steps[index + 1] {
                var candidate = shortest
                candidate.steps.replaceSubrange(index...index + 1, with: [.pass(first + second)])
                if await fails(candidate) {
                    shortest = candidate
                    continue
                }
            }
            index += 1
        }
        return shortest
    }
}
