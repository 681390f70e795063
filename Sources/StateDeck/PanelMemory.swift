/// What a panel carries into a deck that replaces its own (a deck file edited while serving):
/// its history, staleness and debug pin, so an unchanged panel does not start over.
public struct PanelMemory: Sendable {
    let history: ViewStateHistory
    let stale: Bool
    let debugPinned: Bool
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
                history: history, stale: runtime.stale, debugPinned: runtime.debugPinned)
        }
        return memories
    }
}

extension PanelRuntime {
    /// Takes over a panel's memory from the deck this one replaces.
    mutating func restore(_ memory: PanelMemory) {
        history = memory.history
        stale = memory.stale
        debugPinned = memory.debugPinned
    }
}
