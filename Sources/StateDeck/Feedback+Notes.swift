extension Feedback.Note {
    /// The toast a recorded result calls for, derived from the transition rather than sent by hand.
    ///
    /// | previous result | new result | load | toast |
    /// | --- | --- | --- | --- |
    /// | none, info | error | any | error |
    /// | error | error | automatic | none: a panel failing in the background toasts once |
    /// | error | error | manual | error (the same message updates the toast in place) |
    /// | error | info | any | success "<Title> is back" |
    /// | none, info | info | automatic | none |
    /// | none, info | info | manual | success "<Title> refreshed" |
    ///
    /// - Parameter previous: the phase of the panel's newest info or error before this one, nil
    ///   when it has none since its last reset.
    static func result(
        _ result: ViewState,
        after previous: ViewState.Phase?,
        manual: Bool,
        in panel: Panel
    ) -> Self? {
        switch result {
        case .loaded(let info):
            guard previous == .error || manual else { return nil }
            let message = panel.successMessage?(info) ?? "\(panel.title) \(previous == .error ? "is back" : "refreshed")"
            return Self(style: .success, message: message, panelId: panel.id)
        case .error(let error):
            guard previous != .error || manual else { return nil }
            let message = panel.failureMessage?(error) ?? "\(panel.title): \(error.title)"
            let primary = ErrorPresenter(panelOptions: panel.recoveryOptions).options(for: error)
                .first { $0.role == .primary }
            let action = primary.map { Toast.Action(id: $0.id, label: $0.label) }
            return Self(style: .error, message: message, panelId: panel.id, action: action)
        case .initial, .loading:
            return nil
        }
    }

    /// `work` on `panel` (a recovery option or an item action) worked.
    static func done(_ work: String, in panel: Panel, message: String? = nil) -> Self {
        Self(style: .success, message: message ?? "\(work): done", panelId: panel.id)
    }

    /// `work` on `panel` failed with `error`.
    static func failed(_ work: String, in panel: Panel, with error: PanelError) -> Self {
        Self(style: .error, message: "\(work) failed: \(error.title)", panelId: panel.id)
    }

    /// The error card of `panel` was dismissed.
    static func dismissed(in panel: Panel) -> Self {
        Self(style: .info, message: "\(panel.title): error dismissed", panelId: panel.id)
    }
}
