/// Turns a ``PanelError`` into the ``ErrorCard`` the page draws: the one place that decides an
/// error's copy and buttons.
///
/// A card offers, in order and each id once: the error's own options, the panel's options that fit
/// the error's kind, then the catalogue's options for the kind (``ErrorKind/recoveryOptions``). A
/// panel option with the id of a catalogue option (`try-again`, `cancel`) replaces it.
public struct ErrorPresenter: Sendable {
    /// The panel's own options.
    public var panelOptions: [RecoveryOption]

    /// A presenter for a panel that offers `panelOptions` on the cards they fit.
    public init(panelOptions: [RecoveryOption] = []) {
        self.panelOptions = panelOptions
    }

    /// The options of `error`'s card.
    public func options(for error: PanelError) -> [RecoveryOption] {
        var offered = Set<String>()
        let candidates = error.recoveryOptions + panelOptions.filter { $0.fits(error.kind) } + error.kind.recoveryOptions
        return candidates.filter { offered.insert($0.id).inserted }
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
