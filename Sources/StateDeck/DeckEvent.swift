/// What a deck's observers hear, in order.
public enum DeckEvent: Sendable, Equatable {
    /// Some field of a panel's state changed; this is the whole new state.
    case panel(PanelState)
    /// A new toast, or the current one updated in place (same id).
    case toast(Toast)
    /// A state recorded, or a load ended, on one panel: heard before the `panel` event it causes.
    case change(PanelChange)
    /// The maintenance windows holding, or the next ones, changed: the whole status, and the
    /// windows just started or ended by hand, for a history to keep (heard after the `.mark`
    /// changes it caused).
    case maintenance(MaintenanceStatus, keep: [MaintenanceSpan])
    /// The incidents the state shows (open, and resolved within the last 24 h, newest first)
    /// changed: all of them, and those just opened or updated, for a history to keep and the
    /// deck's incident targets to be told.
    case incidents([Incident], keep: [Incident])
}
