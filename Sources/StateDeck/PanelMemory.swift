import FoundationEssentials

/// What a panel carries into a deck that replaces its own (a deck file edited while serving),
/// or into a new server run from a history store: its history, staleness, health and debug pin,
/// a heartbeat's last run and its flapping, so a panel does not start over.
public struct PanelMemory: Sendable {
    let history: ViewStateHistory
    let stale: Bool
    let health: Health
    let debugPinned: Bool
    /// From an earlier server run: the panel state says `restored` until its first new result.
    let restored: Bool
    /// When a heartbeat's newest run ended: its next is due after it.
    let lastRun: Date?
    /// Its changes of health and flapping: a history store keeps them with every change, a
    /// cluster's replica with the panel (``FlapRecord``).
    let flaps: FlapWatch
    /// The maintenance window the panel was under in the deck this one replaces: the new deck's
    /// start tells a window it no longer has as ended.
    var maintenance: MaintenanceMark?

    /// A panel's memory as a history store kept it: the newest entries (oldest first), what it
    /// showed, its health, a heartbeat's last run and its flapping count. Its state is what it
    /// showed, not a load that was cut short; it says `restored` until its first new result,
    /// unless `restored` is false (a replayed moment's panel, which was not restored when the
    /// moment was taken).
    public init(entries: [ViewStateHistory.Entry], latestInfo: Info?, latestError: PanelError?,
                shown: ViewState?, stale: Bool, health: Health, lastRun: Date? = nil, restored: Bool = true,
                flaps: FlapRecord = FlapRecord()) {
        history = ViewStateHistory(restoring: entries, latestInfo: latestInfo, latestError: latestError,
                                   shown: shown)
        self.stale = stale
        self.health = health
        debugPinned = false
        self.restored = restored
        self.lastRun = lastRun
        self.flaps = FlapWatch(flaps)
    }

    init(history: ViewStateHistory, stale: Bool, health: Health, debugPinned: Bool, restored: Bool, lastRun: Date?,
         flaps: FlapWatch) {
        self.history = history
        self.stale = stale
        self.health = health
        self.debugPinned = debugPinned
        self.restored = restored
        self.lastRun = lastRun
        self.flaps = flaps
    }
}

extension Deck {
    /// The memories of the panels with these ids (unknown ids are skipped). Actions in flight are
    /// not carried: the old deck stops them.
    public func memories(of ids: Set<String>) -> [String: PanelMemory] {
        var memories: [String: PanelMemory] = [:]
        for runtime in panels where ids.contains(runtime.panel.id) {
            var history = runtime.history
            history.modifyingIds = nil
            memories[runtime.panel.id] = PanelMemory(
                history: history, stale: runtime.stale, health: runtime.health, debugPinned: runtime.debugPinned,
                restored: runtime.restored, lastRun: runtime.pings.lastRun,
                flaps: FlapWatch(changes: runtime.flaps.changes, since: runtime.flaps.since))
            memories[runtime.panel.id]?.maintenance = runtime.maintenance
        }
        return memories
    }
}

extension PanelRuntime {
    /// Takes over a panel's memory from the deck this one replaces.
    mutating func restore(_ memory: PanelMemory) {
        history = memory.history
        stale = memory.stale
        health = memory.health
        debugPinned = memory.debugPinned
        restored = memory.restored
        pings.lastRun = memory.lastRun
        flaps = memory.flaps
        maintenance = memory.maintenance
    }
}

extension Deck {
    /// Continues the panels named in `memories` from them (what a history store kept of an
    /// earlier run): their states are drawn at once, marked `restored`, flapping as they were
    /// unless the rule's window has passed since their newest change (``FlapRecord``). Call
    /// before `start()`, which arms the alarms that end flapping.
    public func restore(_ memories: [String: PanelMemory]) {
        let now = configuration.now()
        for index in panels.indices {
            guard let memory = memories[panelIds[index]] else { continue }
            panels[index].restore(memory)
            panels[index].flaps = FlapWatch(memory.flaps.record.continued(under: configuration.flapping, at: now))
            publish(index)
        }
    }
}
