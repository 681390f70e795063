/// The steps of one simulated world, made from its seed: sources that flip in short blips and
/// long outages, faults at random, edits of the deck file, maintenance windows, and a check every
/// few simulated hours and at the end.
public struct Scenario: Sendable {
    public var seed: UInt64
    public var panelCount: Int
    public var steps: [SimulationStep]

    public init(seed: UInt64, panelCount: Int, steps: [SimulationStep]) {
        self.seed = seed
        self.panelCount = panelCount
        self.steps = steps
    }

    /// A world of `days` simulated days (a jump of the wall clock does not count) from `seed`.
    public init(seed: UInt64, days: Int) {
        var random = SeededRandom(seed: seed)
        let panelCount = Int.random(in: 2...5, using: &random)
        var steps: [SimulationStep] = []
        var elapsed = Duration.zero
        var nextCheck = Duration.seconds(6 * 3_600)
        var present = Set(0..<panelCount)
        var diskFull = false
        var target = SimulationStep.TargetMood.answering
        while elapsed < .seconds(days * 86_400) {
            let step: SimulationStep
            switch Double.random(in: 0..<1, using: &random) {
            case ..<0.43:
                // Mostly minutes; now and then hours, which long outages are made of.
                step = .pass(.seconds(Int64(random.spread(5...(random.chance(0.1) ? 43_200 : 1_800)))))
            case ..<0.71:
                step = .source(panel: Int.random(in: 0..<panelCount, using: &random), up: random.chance(0.6))
            case ..<0.725: step = .kill
            case ..<0.74: step = .restart
            case ..<0.76:
                let back = random.chance(0.4)
                let size = random.spread(30...(back ? 86_400 : (random.chance(0.2) ? 3 * 365 * 86_400 : 86_400 * 10)))
                step = .jump(.seconds(Int64(back ? -size : size)))
            case ..<0.82:
                let panel = Int.random(in: 0..<panelCount, using: &random)
                step = present.contains(panel) ? .remove(panel: panel) : .add(panel: panel)
                if present.contains(panel) { present.remove(panel) } else { present.insert(panel) }
            case ..<0.87:
                diskFull.toggle()
                step = .disk(full: diskFull)
            case ..<0.92:
                target = target != .answering ? .answering : random.chance(0.5) ? .failing : .hanging
                step = .target(target)
            case ..<0.95:
                step = .maintenance(panel: Int.random(in: 0..<panelCount, using: &random), minutes: Int(random.spread(5...240)))
            case ..<0.965:
                step = .notify([[0, 1], [1, 0], [0], [1], []].randomElement(using: &random)!)
            case ..<0.975:
                step = .rename(panel: Int.random(in: 0..<panelCount, using: &random))
            case ..<0.985:
                step = .regroup
            default:
                step = .dependencies
            }
            steps.append(step)
            if case .pass(let duration) = step { elapsed += duration }
            if elapsed >= nextCheck {
                steps.append(.check)
                nextCheck = elapsed + .seconds(6 * 3_600)
            }
        }
        steps.append(.check)
        self.init(seed: seed, panelCount: panelCount, steps: steps)
    }
}
