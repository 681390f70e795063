import Locking
import StateDeck

/// Work whose outcomes the test decides: a panel's loader (`Script<Info>`) or an item action
/// (`Script<Void>`).
///
/// Each run takes the next scripted outcome, or the default one once the script is used up.
/// While the script is held, runs wait until `release()`; a cancelled run ends at once.
final class Script<Output: Sendable>: Sendable {
    typealias Outcome = Result<Output, PanelError>

    private struct State {
        var fallback: Outcome
        var upcoming: [Outcome] = []
        var holding = false
        var runs = 0
        var waiters: [Int: (continuation: CheckedContinuation<Outcome, any Error>, outcome: Outcome)] = [:]
    }

    private let state: Locked<State>

    init(_ fallback: Outcome) {
        state = Locked(State(fallback: fallback))
    }

    /// How many runs have started.
    var runs: Int { state.withLock { $0.runs } }

    /// How many runs are waiting for `release()`.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// The outcomes of the next runs, in order.
    func then(_ outcomes: Outcome...) {
        state.withLock { $0.upcoming += outcomes }
    }

    /// Makes every run from now on wait for `release()`.
    func hold() {
        state.withLock { $0.holding = true }
    }

    /// Lets every waiting run end with its outcome, and later runs end at once.
    func release() {
        let waiters = state.withLock { state in
            state.holding = false
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.continuation.resume(returning: waiter.outcome)
        }
    }

    /// One run: the next outcome, once released.
    func run() async throws -> Output {
        let ticket = state.withLock { state in
            state.runs += 1
            return state.runs
        }
        let outcome = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Outcome? in
                    let outcome = state.upcoming.isEmpty ? state.fallback : state.upcoming.removeFirst()
                    // Cancellation is flagged before the handler runs, so checking it here,
                    // under the lock, leaves no window in which a cancelled run could wait.
                    guard state.holding, !Task.isCancelled else { return outcome }
                    state.waiters[ticket] = (continuation, outcome)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: ticket) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
        return try outcome.get()
    }
}
