import StateDeck
import YAML

// MARK: - Flapping

extension DeckFile {
    /// `flapping:`: `off`, or `{ changes, within }` over the defaults (more than 5 changes of
    /// health within 10 min).
    static func flapping(_ node: ConfigNode) -> FlappingRule? {
        if case .scalar("off", _) = node.node.kind { return nil }
        if case .scalar = node.node.kind {
            node.problem("must be off or a mapping of changes and within")
            return FlappingRule()
        }
        guard let map = node.mapping(allowing: ["changes", "within"]) else { return FlappingRule() }
        let rule = FlappingRule()
        return FlappingRule(changes: map["changes"]?.int(in: 1...1_000) ?? rule.changes,
                            within: map["within"]?.duration(atLeast: .seconds(10), atMost: .seconds(86_400)) ?? rule.within)
    }
}

// MARK: - Dependencies

extension DeckFile {
    /// Reports, where each panel's `dependsOn` was written (its own, its group's `defaults` or the
    /// file's), an id that is no panel of the file, the panel itself, and the first cycle the
    /// lists make. A list written in `defaults` is reported once, however many panels inherit it.
    static func reportDependencies(of panels: some Sequence<(ConfigNode, PanelSpec)>, in root: ConfigMapping) {
        let panels = Array(panels)
        let ids = panels.map(\.1.id)
        let known = Set(ids)
        var reported = Set<String>()
        var declared: [String: [String]] = [:]
        var written: [String: ConfigNode] = [:]
        for (node, panel) in panels where !panel.settings.dependsOn.isEmpty {
            guard let list = dependsOnNode(of: node, in: panel.group?.id, root: root) else { continue }
            written[panel.id] = list
            for id in panel.settings.dependsOn where !known.contains(id) || id == panel.id {
                let item = list.item(id)
                let message = if id != panel.id {
                    "no panel \(id) in panels\(id.hint(among: ids))"
                } else if node.node["dependsOn"] != nil {
                    "\(id) is the panel itself: a panel cannot depend on itself"
                } else {
                    "panel \(id) inherits this list and would depend on itself: give it a dependsOn of its own"
                }
                if reported.insert("\(item.path) \(message)").inserted { item.problem(message) }
            }
            declared[panel.id] = panel.settings.dependsOn.filter { known.contains($0) && $0 != panel.id }
        }
        if let cycle = Deck.dependencyCycle(in: declared, order: ids), let list = written[cycle[0]] {
            list.problem("dependsOn makes a cycle: \(cycle.joined(separator: " → "))")
        }
    }

    /// The `dependsOn` list a panel has: its own, else its group's `defaults`' one, else the file's.
    private static func dependsOnNode(of panel: ConfigNode, in group: String?, root: ConfigMapping) -> ConfigNode? {
        if let own = panel.node["dependsOn"] { return panel.child(own, at: .key("dependsOn")) }
        if let group, let groups = root["groups"], case .sequence(let items) = groups.node.kind,
           let position = items.firstIndex(where: { $0["id"]?.scalarText == group }),
           let defaults = items[position]["defaults"], let list = defaults["dependsOn"] {
            return groups.child(items[position], at: .index(position)).child(defaults, at: .key("defaults"))
                .child(list, at: .key("dependsOn"))
        }
        guard let defaults = root["defaults"], let list = defaults.node["dependsOn"] else { return nil }
        return defaults.child(list, at: .key("dependsOn"))
    }
}

private extension ConfigNode {
    /// The item of this list that reads `id`, or the list itself.
    func item(_ id: String) -> ConfigNode {
        guard case .sequence(let items) = node.kind, let position = items.firstIndex(where: { $0.scalarText == id }) else {
            return self
        }
        return child(items[position], at: .index(position))
    }
}

private extension YAMLNode {
    /// The text of a scalar, as written.
    var scalarText: String? {
        if case .scalar(let text, _) = kind { text } else { nil }
    }
}
