extension Deck {
    /// Forces a state on the panel (see ``DebugCommand``) and returns its new state.
    ///
    /// Whether debugging is allowed is the server's decision, not the deck's.
    @discardableResult
    public func debug(_ command: DebugCommand, panel id: String) throws(DeckError) -> PanelState {
        let index = try index(of: id)
        if command != .live { pin(index) }
        switch command {
        case .live:
            panels[index].debugPinned = false
            // Forced ids go; the items whose actions really run show again.
            let running = panels[index].runningActions
            panels[index].history.modifyingIds = running.isEmpty ? nil : running
            reload(index)
        case .loading:
            record(.loading, in: index)
        case .loaded(let info):
            record(.loaded(info ?? panels[index].panel.placeholder ?? .sample), in: index)
        case .error(let kind):
            record(.error(PanelError(kind ?? .unknown)), in: index)
        case .reset:
            update(index) { $0.reset() }
        case .modifyingIds(let ids):
            update(index) { $0.history.modifyingIds = ids.isEmpty ? nil : ids }
        }
        publish(index)
        return panels[index].state()
    }

    /// Holds the panel for debugging: no scheduled load, and the load in flight is abandoned.
    private func pin(_ index: Int) {
        abandonLoad(index)
        panels[index].timer?.cancel()
        panels[index].debugPinned = true
    }
}
