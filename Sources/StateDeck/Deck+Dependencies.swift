extension Deck {
    /// The first cycle `dependencies` (panel id → the ids it depends on) make, visiting panels in
    /// `order`: its ids from a panel back to itself, such as `["api", "cache", "api"]`, or
    /// `["api", "api"]` for a panel that depends on itself; nil when there is none. Ids that are
    /// no panel's are skipped.
    public static func dependencyCycle(in dependencies: [String: [String]], order: [String]) -> [String]? {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        for root in order where marks[root] == nil {
            // An explicit stack of (panel, its next dependency): a chain of 10,000 panels would
            // overflow a recursive walk.
            var path: [(id: String, next: Int)] = [(root, 0)]
            marks[root] = .visiting
            while let (id, next) = path.last {
                let targets = dependencies[id] ?? []
                guard next < targets.count else {
                    marks[id] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let target = targets[next]
                switch marks[target] {
                case .visiting:
                    let start = path.firstIndex { $0.id == target }!
                    return path[start...].map(\.id) + [target]
                case .done:
                    continue
                case nil:
                    marks[target] = .visiting
                    path.append((target, 0))
                }
            }
        }
        return nil
    }

    /// Each panel's dependencies and dependents, by index (`positions`, by id), checked as ids are:
    /// every dependency is a panel of the deck and none makes a cycle (a deck file reports both
    /// earlier, naming the line).
    static func dependencyIndices(of panels: [Panel], ids: [String],
                                  positions: [String: Int]) -> (dependencies: [[Int]], dependents: [[Int]]) {
        var dependents = Array(repeating: [Int](), count: panels.count)
        let dependencies = panels.enumerated().map { index, panel in
            panel.dependsOn.map { id in
                guard let position = positions[id] else {
                    preconditionFailure("Panel \(panel.id) depends on \(id), which is no panel of the deck")
                }
                dependents[position].append(index)
                return position
            }
        }
        let declared = Dictionary(uniqueKeysWithValues: panels.map { ($0.id, $0.dependsOn) })
        if let cycle = dependencyCycle(in: declared, order: ids) {
            preconditionFailure("dependsOn makes a cycle: \(cycle.joined(separator: " → "))")
        }
        return (dependencies, dependents)
    }

    /// The ids of panel `index`'s direct dependencies that are down, while it is down itself.
    func probableCauses(of index: Int) -> [String] {
        guard panels[index].shownHealth == .down else { return [] }
        return dependencyIndices[index].filter { panels[$0].shownHealth == .down }.map { panelIds[$0] }
    }

    /// Publishes again the panels that depend on panel `index`, whose health just changed: the
    /// probable causes of those that are down may have changed with it, though nothing of their
    /// own did. Those not down have none either way: a database that 10,000 working panels depend
    /// on changes no state but its own.
    func publishDependents(of index: Int) {
        for dependent in dependentIndices[index] where panels[dependent].shownHealth == .down { publish(dependent) }
    }
}
