import Locking

/// Joins the three ends of a command (its exit and the end of its two pipes) into one result.
final class CommandCompletion: Sendable {
    private struct State {
        var exiting = false
        var exit: CommandResult.Termination?
        var timedOut = false
        var openPipes = 2
        var waiter: CheckedContinuation<CommandResult.Termination, Never>?

        /// The final termination, once the exit and the end of both pipes are known.
        var outcome: CommandResult.Termination? {
            guard let exit, openPipes == 0 else { return nil }
            return timedOut ? .timedOut : exit
        }
    }

    private let state = Locked(State())

    /// The process has exited but is not reaped yet: from now on it must not be signalled.
    func leaderExiting() {
        state.withLock { $0.exiting = true }
    }

    func exited(_ termination: CommandResult.Termination) {
        update { $0.exit = termination }
    }

    func pipeEnded() {
        update { $0.openPipes -= 1 }
    }

    /// Runs `kill` (under the lock) while the process has not exited.
    func killIfRunning(timedOut: Bool, _ kill: () -> Void) {
        state.withLock { state in
            guard !state.exiting else { return }
            state.timedOut = state.timedOut || timedOut
            kill()
        }
    }

    /// Waits for the exit and the end of both pipes.
    func wait() async -> CommandResult.Termination {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { state in
                if state.outcome == nil { state.waiter = continuation }
                return state.outcome
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let resume = state.withLock { state -> (() -> Void)? in
            change(&state)
            guard let outcome = state.outcome, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return { waiter.resume(returning: outcome) }
        }
        resume?()
    }
}
