import Locking

/// Whether a load waits for its turn behind a limit of its source (``LoadProgress``), as its task
/// tells it and the deck reads it.
///
/// A lock rather than a message to the deck: behind a busy source almost every load waits, and
/// telling the deck's actor twice per load doubled the thread hand-offs of a check. The deck only
/// needs to hear of it while the load is shown; a quiet check's wait is read when a person asks
/// for the load too, or never.
final class TurnWait: Sendable {
    private struct State {
        var waiting = false
        var shown: Bool
    }

    private let state: Locked<State>

    /// A load that is `shown` as loading from its start, or quiet until ``show()``.
    init(shown: Bool) {
        state = Locked(State(shown: shown))
    }

    var isWaiting: Bool { state.current.waiting }

    /// Sets whether the load waits; true when that changed while the load is shown, so the deck
    /// must send its state again.
    func set(_ waiting: Bool) -> Bool {
        state.withLock { state in
            defer { state.waiting = waiting }
            return state.shown && state.waiting != waiting
        }
    }

    /// The load is shown as loading from now on.
    func show() {
        state.withLock { $0.shown = true }
    }
}
