import FoundationEssentials

extension Deck {
    /// Pushes a state from the library user's own code; results toast like loaded ones. While a
    /// debug state pins the panel, the newest push waits and is recorded when the pin is released.
    public func push(_ state: ViewState, panel id: String) throws(DeckError) {
        let index = try index(of: id)
        recordUnlessPinned(checked(panels[index].takeReadings(of: state)), in: index)
    }

    /// `state`, or for info past the limits the error card naming the limit.
    func checked(_ state: ViewState) -> ViewState {
        guard case .loaded(let info) = state else { return state }
        switch runner.checked(info) {
        case .success: return state
        case .failure(let error): return .error(error)
        }
    }

    /// Records `state` on panel `index`, tells observers of the change and the new state, calls
    /// the panel's handlers and shows the toast the transition calls for.
    func record(_ state: ViewState, in index: Int, cause: PanelChange.Cause, manual: Bool = false) {
        let previous = panels[index].history.latestNonLoading?.phase
        let date = configuration.now()
        panels[index].record(state, at: date)
        publishChange(state, on: index, at: date, cause: cause)
        let panel = panels[index].panel
        switch state {
        case .loaded(let info): panel.loadedHandler?(info)
        case .error(let error): panel.errorHandler?(error)
        case .initial, .loading: break
        }
        if let note = Feedback.Note.result(state, after: previous, manual: manual, in: panel) {
            show(note)
        }
    }

    /// Dismisses panel `index`'s error card: its last info comes back marked stale, or the panel
    /// is reset.
    func dismissError(_ index: Int) {
        guard let info = panels[index].history.latestInfo else { return reset(index, cause: .view) }
        let date = configuration.now()
        panels[index].showStale(info, at: date)
        publishChange(.loaded(info), on: index, at: date, cause: .view)
    }

    /// Forgets panel `index`'s history.
    func reset(_ index: Int, cause: PanelChange.Cause) {
        panels[index].reset()
        publishChange(.initial, on: index, at: configuration.now(), cause: cause)
    }

    /// Tells observers of the change just recorded on panel `index`, then of its new state.
    private func publishChange(_ state: ViewState, on index: Int, at date: Date, cause: PanelChange.Cause) {
        emitChange(state, on: index, at: date, cause: cause)
        publish(index)
    }

    /// Decides panel `index`'s health after the change, the one place it is decided, and tells
    /// observers of the change with it.
    func emitChange(_ state: ViewState, on index: Int, at date: Date, cause: PanelChange.Cause, recorded: Bool = true) {
        let health = panels[index].health.after(state, cause: cause)
        countFlap(index, from: panels[index].health, to: health, at: date)
        panels[index].health = health
        if cause == .debug { panels[index].forcedHealth = (panels[index].forcedHealth ?? health).forced(state) }
        emit(.change(PanelChange(panel: panels[index].panel.id, at: date, state: state, cause: cause, health: health,
                                 recorded: recorded, maintenance: panels[index].maintenance,
                                 flaps: panels[index].flaps.record)))
    }

    /// Shows a toast about the deck itself, such as a deck file that could not be reloaded.
    public func announce(_ message: String, style: Toast.Style) {
        show(Feedback.Note(style: style, message: message))
    }

    /// Shows `note` as the deck's toast and arms its expiry.
    func show(_ note: Feedback.Note) {
        let toast = feedback.show(note)
        emit(.toast(toast))
        let revision = feedback.revision
        let deadline = clock.now + feedback.duration
        toastExpiry?.cancel()
        toastExpiry = Task { [clock, weak self] in
            guard (try? await clock.sleep(until: deadline)) != nil else { return }
            await self?.expireToast(revision: revision)
        }
    }

    private func expireToast(revision: Int) {
        feedback.expire(revision: revision)
    }
}
