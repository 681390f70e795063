/// The deck's toast slot: one toast at a time, the newest replacing the current one.
///
/// A toast about the panel whose toast is showing takes over its id, so the page updates it in
/// place (the same message again, or "API is back" replacing "API: Timed out") instead of
/// stacking. Expiry is the deck's: it clears the slot ``duration`` after the newest toast.
struct Feedback: Sendable {
    /// What a toast says, before the slot gives it an id.
    struct Note: Sendable, Equatable {
        var style: Toast.Style
        var message: String
        var panelId: String?
        var action: Toast.Action?
    }

    let duration: Duration
    let position: Toast.Position
    /// The toast shown now, until it expires.
    private(set) var current: Toast?
    /// Counts shown toasts, so that an expiry only clears the toast it was armed for.
    private(set) var revision = 0
    private var issuedIds = 0

    init(duration: Duration, position: Toast.Position) {
        self.duration = duration
        self.position = position
    }

    /// Shows `note` in place of the current toast.
    mutating func show(_ note: Note) -> Toast {
        revision += 1
        let toast = Toast(
            id: reusableId(for: note) ?? nextId(),
            style: note.style,
            message: note.message,
            panelId: note.panelId,
            durationMs: Int(duration / .milliseconds(1)),
            position: position,
            action: note.action
        )
        current = toast
        return toast
    }

    /// Clears the toast if it is still the one shown at `revision`.
    mutating func expire(revision expired: Int) {
        if expired == revision { current = nil }
    }

    private func reusableId(for note: Note) -> String? {
        guard let current, let panelId = note.panelId, current.panelId == panelId else { return nil }
        return current.id
    }

    private mutating func nextId() -> String {
        issuedIds += 1
        return "toast-\(issuedIds)"
    }
}
