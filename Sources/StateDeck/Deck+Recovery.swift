extension Deck {
    /// Runs option `optionId` of the panel's current error card.
    ///
    /// Try again is a manual retry; dismiss shows the last info marked stale (or the initial
    /// state); other options run their handler while the card shows its preloader, toast the
    /// outcome, and reload the panel once they worked. On a card forced by a debug state, the
    /// panel is released first and the option runs as it would on a real card.
    ///
    /// - Throws: `unknownOption` when the card does not offer the option; `conflict` when the panel
    ///   shows no error or a recovery already runs.
    /// - Returns: The option chosen, as the card offered it (its label signs the action).
    @discardableResult
    public func recover(panel id: String, option optionId: String) throws(DeckError) -> RecoveryOption {
        let index = try index(of: id)
        let runtime = panels[index]
        guard let error = runtime.history.latestValidError else {
            throw .conflict("Panel '\(id)' shows no error to recover from.")
        }
        guard let option = runtime.presenter.options(for: error).first(where: { $0.id == optionId }) else {
            throw .unknownOption(panel: id, option: optionId)
        }
        guard runtime.recovering == nil else { throw .conflict("A recovery of panel '\(id)' is already running.") }
        release(index)
        switch option.work {
        case .retry:
            try retry(panel: id)
            update(index) { $0.recovering = option.id }
        case .dismiss:
            dismissError(index)
            show(.dismissed(in: runtime.panel))
        case .run(let handler):
            update(index) { $0.recovering = option.id }
            runActivity { deck in
                let result = await Result { try await handler() }
                deck.recoveryEnded(index, option: option, result: result)
            }
        }
        return option
    }

    private func recoveryEnded(_ index: Int, option: RecoveryOption, result: Result<Void, any Error>) {
        update(index) { $0.recovering = nil }
        let panel = panels[index].panel
        switch result {
        case .success:
            show(.done(option.label, in: panel, message: option.message))
            reload(index)
        case .failure(let error):
            show(.failed(option.label, in: panel, with: PanelError(error)))
        }
    }
}
