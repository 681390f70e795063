import StateDeck

extension PanelSpec {
    /// How much longer the core waits than the source: the source's own timeout, with its
    /// details, should end an attempt, not the core's.
    static let timeoutMargin = Duration.seconds(1)

    /// The core's panel: loads from the source, with the file's settings, messages and commands.
    func makePanel(runner: CommandRunner) -> Panel {
        var panel = Panel(id, title: title) { [source] in try await source.load() }
            .refresh(settings.refresh)
            .timeout((source.timeout ?? settings.timeout) + Self.timeoutMargin)
            .retry(settings.retry)
            .minimumLoadingTime(settings.minimumLoadingTime)
        panel.presentation = settings.presentation
        panel.placeholder = placeholder
        panel.recoveryOptions = recovery.map { $0.recoveryOption(runner: runner) }
        panel.itemActions = actions.map { $0.itemAction(runner: runner) }
        if let success = toasts.success {
            panel = panel.successMessage { _ in success }
        }
        if let failure = toasts.failure {
            panel = panel.failureMessage { _ in failure }
        }
        return panel
    }
}
