/// Turns a ``PanelError`` into the ``ErrorCard`` the page draws: the one place that decides an
/// error's copy and buttons.
public struct ErrorPresenter: Sendable {
    /// The panel's own options, offered after the error's.
    public var panelOptions: [RecoveryOption]

    /// A presenter for a panel that offers `panelOptions` on every card.
    public init(panelOptions: [RecoveryOption] = [.tryAgain, .cancel]) {
        self.panelOptions = panelOptions
    }

    /// The error's options, then the panel's that the error does not already offer.
    public func options(for error: PanelError) -> [RecoveryOption] {
        let offered = Set(error.recoveryOptions.map(\.id))
        return error.recoveryOptions + panelOptions.filter { !offered.contains($0.id) }
    }

    /// The card for `error`; `showPreloader` while a recovery option is at work.
    public func card(for error: PanelError, showPreloader: Bool = false) -> ErrorCard {
        ErrorCard(
            kind: error.kind,
            title: error.title,
            description: error.message,
            icon: error.kind.icon,
            showPreloader: showPreloader,
            failureReason: error.failureReason,
            recoverySuggestion: error.recoverySuggestion,
            detail: error.detail,
            options: options(for: error).map { ErrorCard.Option(id: $0.id, label: $0.label, role: $0.role) }
        )
    }
}
