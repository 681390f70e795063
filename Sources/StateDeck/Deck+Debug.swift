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
            release(index)
            reload(index)
        case .loading:
            record(.loading, in: index, cause: .debug)
        case .loaded(let info):
            record(checked(.loaded(info ?? panels[index].panel.placeholder ?? .sample)), in: index, cause: .debug)
        case .error(let kind):
            record(.error(PanelError(kind ?? .unknown)), in: index, cause: .debug)
        case .reset:
            reset(index, cause: .debug)
        case .modifyingIds(let ids):
            update(index) { $0.history.modifyingIds = ids.isEmpty ? nil : ids }
        }
        publish(index)
        return state(index)
    }

    /// Holds the panel for debugging: no scheduled load, and the load in flight is abandoned.
    private func pin(_ index: Int) {
        abandonLoad(index)
        loadSchedule.remove(index)
        panels[index].debugPinned = true
    }

    /// Ends a debug pin, if any: the forced ids go (the items whose actions really run show
    /// again), a state pushed or returned by an item action meanwhile is recorded, and the
    /// panel's schedule resumes.
    func release(_ index: Int) {
        guard panels[index].debugPinned else { return }
        panels[index].debugPinned = false
        panels[index].forcedHealth = nil
        let running = panels[index].runningActions
        panels[index].history.modifyingIds = running.isEmpty ? nil : running
        if let held = panels[index].heldWhilePinned {
            panels[index].heldWhilePinned = nil
            record(held, in: index, cause: .push)
        }
        if panels[index].load == nil { scheduleNextLoad(index) }
    }

    /// Records a state that comes from outside the deck's loads (a push, an item action's info),
    /// unless a debug state pins the panel: then the newest such state waits for the release, and
    /// the forced state stays as it was forced.
    func recordUnlessPinned(_ state: ViewState, in index: Int) {
        if panels[index].debugPinned {
            panels[index].heldWhilePinned = state
            publish(index)
        } else {
            record(state, in: index, cause: .push)
        }
    }
}
