import Foundation
import StateDeck
import TestSupport

/// Every event of a deck, kept for tests to wait on.
final class DeckEvents: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var events: [DeckEvent] = []

    init(observing deck: Deck) async {
        await deck.observe { [self] event in lock.withLock { events.append(event) } }
    }

    /// The first panel state matching `predicate`, waiting for it up to `defaultWait`.
    func panel(_ id: String, where predicate: @escaping (PanelState) -> Bool) async -> PanelState? {
        await first { event in
            guard case .panel(let state) = event, state.id == id, predicate(state) else { return nil }
            return state
        }
    }

    /// Every panel state published so far, oldest first.
    var panelStates: [PanelState] {
        lock.withLock { events.compactMap { if case .panel(let state) = $0 { state } else { nil } } }
    }

    /// The first toast whose message is `message`, waiting for it up to `defaultWait`.
    func toast(_ message: String) async -> Toast? {
        await first { event in
            guard case .toast(let toast) = event, toast.message == message else { return nil }
            return toast
        }
    }

    private func first<Match>(_ match: (DeckEvent) -> Match?) async -> Match? {
        await eventuallyValue { lock.withLock { events.lazy.compactMap(match).first } }
    }
}
