import Locking

/// Lets at most `limitPerKey` jobs with one key, and `totalLimit` jobs in all, run at once; the
/// others wait in line, first come first served within a key, keys taking turns when the total is
/// what holds them. Nothing waiting is ever dropped; a task cancelled while it waits leaves the
/// line at once.
///
/// A line of its own rather than the work library's limit (libcurl's per-host limit): the caller
/// learns that it waits, and when its turn comes, so that the wait can be shown on its panel and
/// kept out of the work's timeout.
public final class AdmissionQueue<Key: Hashable & Sendable>: Sendable {
    private struct Line {
        var running = 0
        /// Waiters' ids in order of arrival from `head`; ids that left the line are skipped.
        var order: [UInt64] = []
        var head = 0
        /// Waiters still in line.
        var waiting = 0
        /// Listed in `State.ready`.
        var isReady = false

        var isIdle: Bool { running == 0 && waiting == 0 }
    }

    /// A waiter in line, and its continuation once it parked it.
    private struct Waiter {
        var turn: CheckedContinuation<Void, any Error>?
    }

    private enum Parking { case parked, admitted, left }

    private struct State {
        var lines: [Key: Line] = [:]
        var running = 0
        /// Everyone in line, by id: joining, leaving and parking cost O(1) however long the line.
        var waiters: [UInt64: Waiter] = [:]
        /// Keys whose first waiter may start as soon as the total allows, oldest first from
        /// `readyStart`.
        var ready: [Key] = []
        var readyStart = 0
        /// Waiters whose turn came before they parked their continuation.
        var admittedEarly: Set<UInt64> = []
        var lastWaiter: UInt64 = 0
    }

    private let limitPerKey: Int
    private let totalLimit: Int
    private let state = Locked(State())

    public init(limitPerKey: Int, totalLimit: Int) {
        precondition(limitPerKey > 0 && totalLimit > 0, "an admission queue lets at least one job run")
        self.limitPerKey = limitPerKey
        self.totalLimit = totalLimit
    }

    /// Waits in line for a turn for `key`, calling `waiting(true)` before it waits (only if it
    /// must) and `waiting(false)` once the wait is over. Balance each turn with `leave(key)`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits; it then has no
    ///   turn. A task cancelled once its turn came returns normally.
    public func enter(_ key: Key, waiting: @Sendable (Bool) async -> Void) async throws(CancellationError) {
        guard let id = queueUnlessRoom(key) else { return }
        await waiting(true)
        var cancelled = false
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { park(id, $0) }
            } onCancel: {
                leaveLine(id, key: key)
            }
        } catch {
            cancelled = true
        }
        await waiting(false)
        if cancelled { throw CancellationError() }
    }

    /// Ends a turn taken for `key`: the next in line may start.
    public func leave(_ key: Key) {
        let turns = state.withLock { state in
            state.running -= 1
            state.lines[key]?.running -= 1
            if state.lines[key]?.isIdle == true {
                state.lines[key] = nil
            } else {
                Self.markReady(key, in: &state, limitPerKey: limitPerKey)
            }
            return admit(&state)
        }
        turns.forEach { $0.resume() }
    }

    /// Takes a turn at once when `key` has room and nobody waits before it (nil), else joins the
    /// line and returns the waiter's id.
    private func queueUnlessRoom(_ key: Key) -> UInt64? {
        state.withLock { state in
            // Changed in place, never copied out: a copy of a long line's order would be copied
            // again on write.
            let line = state.lines[key]
            // Keys wait for the total only while it is full, so room in it means nobody waits for it.
            if state.running < totalLimit, (line?.running ?? 0) < limitPerKey, (line?.waiting ?? 0) == 0 {
                state.running += 1
                state.lines[key, default: Line()].running += 1
                return nil
            }
            state.lastWaiter += 1
            state.lines[key, default: Line()].order.append(state.lastWaiter)
            state.lines[key, default: Line()].waiting += 1
            state.waiters[state.lastWaiter] = Waiter()
            Self.markReady(key, in: &state, limitPerKey: limitPerKey)
            return state.lastWaiter
        }
    }

    /// Parks waiter `id`'s continuation, or resumes it at once if its turn came already, or
    /// throws if it left the line (cancelled) before it parked.
    private func park(_ id: UInt64, _ turn: CheckedContinuation<Void, any Error>) {
        let parking = state.withLock { state -> Parking in
            if state.waiters[id] != nil {
                state.waiters[id]?.turn = turn
                return .parked
            }
            return state.admittedEarly.remove(id) != nil ? .admitted : .left
        }
        switch parking {
        case .parked: break
        case .admitted: turn.resume()
        case .left: turn.resume(throwing: CancellationError())
        }
    }

    /// Takes waiter `id` out of the line, if it is still in it.
    private func leaveLine(_ id: UInt64, key: Key) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            state.lines[key]?.waiting -= 1
            if state.lines[key]?.isIdle == true { state.lines[key] = nil }
            return waiter
        }
        waiter?.turn?.resume(throwing: CancellationError())
    }

    /// Lists `key` as ready when its first waiter could start but for the total.
    private static func markReady(_ key: Key, in state: inout State, limitPerKey: Int) {
        guard let line = state.lines[key], !line.isReady, line.waiting > 0, line.running < limitPerKey else { return }
        state.lines[key]?.isReady = true
        state.ready.append(key)
    }

    /// Starts waiters while the total allows, keys taking turns; returns the parked ones to resume
    /// once the lock is released.
    private func admit(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        var turns: [CheckedContinuation<Void, any Error>] = []
        while state.running < totalLimit, state.readyStart < state.ready.count {
            let key = state.ready[state.readyStart]
            state.readyStart += 1
            guard let running = state.lines[key]?.running else { continue }
            state.lines[key]?.isReady = false
            if running < limitPerKey, let id = Self.takeFirstWaiter(key, from: &state) {
                let waiter = state.waiters.removeValue(forKey: id)
                state.lines[key]?.waiting -= 1
                state.lines[key]?.running += 1
                state.running += 1
                if let turn = waiter?.turn { turns.append(turn) } else { state.admittedEarly.insert(id) }
            }
            Self.markReady(key, in: &state, limitPerKey: limitPerKey)
        }
        if state.readyStart > 64, state.readyStart * 2 > state.ready.count {
            state.ready.removeFirst(state.readyStart)
            state.readyStart = 0
        }
        return turns
    }

    /// Takes the id of the first waiter still in `key`'s line out of its order, skipping those
    /// that left.
    private static func takeFirstWaiter(_ key: Key, from state: inout State) -> UInt64? {
        while let line = state.lines[key], line.head < line.order.count {
            let id = line.order[line.head]
            state.lines[key]?.head += 1
            if line.head > 64, line.head * 2 > line.order.count {
                state.lines[key]?.order.removeFirst(line.head + 1)
                state.lines[key]?.head = 0
            }
            if state.waiters[id] != nil { return id }
        }
        return nil
    }
}
