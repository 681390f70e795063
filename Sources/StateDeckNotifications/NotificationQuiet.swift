import StateDeck

/// What each panel is under that quiets its notifications: a maintenance window, flapping, a
/// panel it depends on being down. The notifier keeps it from the changes it hears
/// (``update(with:)``) and asks it, for each notification it decides, whether to send it now
/// (``quiet(for:)``; the rules are ``Notifier/Quiet``'s).
struct NotificationQuiet {
    /// Each panel's declared dependencies, and the panels that declare each.
    let dependencies: [String: [String]]
    private let dependents: [String: [String]]
    /// The health of every panel that depends or is depended on.
    private var health: [String: Health] = [:]
    private var maintenance: [String: MaintenanceMark] = [:]
    private var flapping: Set<String> = []

    /// What `panels` are under now, as a notifier that starts to follow their deck sees them.
    init(dependencies: [String: [String]], panels: [PanelState]) {
        self.dependencies = dependencies
        var dependents: [String: [String]] = [:]
        for (panel, list) in dependencies { for dependency in list { dependents[dependency, default: []].append(panel) } }
        self.dependents = dependents
        for panel in panels {
            if dependencies[panel.id] != nil || dependents[panel.id] != nil { health[panel.id] = panel.health }
            if let mark = panel.maintenance { maintenance[panel.id] = mark }
            if panel.flapping != nil { flapping.insert(panel.id) }
        }
    }

    /// The panels whose health the notifier follows on every change, not only while failing.
    var followed: Set<String> { Set(dependencies.keys).union(dependents.keys) }

    /// Why a notification decided now for `panel` is not sent, if it is not: its maintenance
    /// window first, then its flapping, then the first of its dependencies that is down.
    func quiet(for panel: String) -> Notifier.Quiet? {
        if let mark = maintenance[panel] { return .maintenance(mark) }
        if flapping.contains(panel) { return .flapping }
        if let down = dependencies[panel]?.first(where: { health[$0] == .down }) { return .dependency(down) }
        return nil
    }

    /// What a change ended: the quiet of its own panel (its window or its flapping), or that of
    /// the panels depending on it (it is no longer down).
    struct Lifted {
        var beganFlapping = false
        var ownQuiet = false
        var dependents: [String] = []
    }

    /// Takes what `change` says of its panel, and says what quiet it began or ended.
    mutating func update(with change: PanelChange) -> Lifted {
        let panel = change.panel
        var lifted = Lifted()
        let (wasUnderMaintenance, wasFlapping) = (maintenance[panel] != nil, flapping.contains(panel))
        maintenance[panel] = change.maintenance
        if change.flapping { flapping.insert(panel) } else { flapping.remove(panel) }
        lifted.beganFlapping = !wasFlapping && change.flapping
        lifted.ownQuiet = (wasUnderMaintenance && change.maintenance == nil) || (wasFlapping && !change.flapping)
        // Only the panels that depend or are depended on have a health here, from the start.
        if let before = health[panel] {
            health[panel] = change.health
            if before == .down, change.health != .down { lifted.dependents = dependents[panel] ?? [] }
        }
        return lifted
    }

    /// The panels that depend on `panel`, directly or through others, and are down: those failing
    /// with it.
    func failingDependents(of panel: String) -> [String] {
        var seen: Set<String> = [panel]
        var next = dependents[panel] ?? []
        var failing: [String] = []
        while let dependent = next.popLast() {
            guard seen.insert(dependent).inserted else { continue }
            if health[dependent] == .down { failing.append(dependent) }
            next += dependents[dependent] ?? []
        }
        return failing.sorted()
    }
}
