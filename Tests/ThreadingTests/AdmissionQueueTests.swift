import Glibc
import Locking
import TestSupport
import Testing
import Threading

/// The line the http engine, the command loads and the name lookups wait in.
@Suite("AdmissionQueue")
struct AdmissionQueueTests {
    /// Enters `queue` for `key` in a task that notes `name` in `order` when its turn comes, then
    /// leaves; returns once the task waits in line.
    static func waiter(
        _ name: String, key: String, queue: AdmissionQueue<String>, order: Locked<[String]>
    ) async -> Task<Void, any Error> {
        let inLine = Locked(false)
        let task = Task {
            try await queue.enter(key) { if $0 { inLine.withLock { $0 = true } } }
            order.withLock { $0.append(name) }
            queue.leave(key)
        }
        #expect(await eventually { inLine.current })
        return task
    }

    @Test func fiftyWaitersStartInTheOrderTheyCameAndNoneIsDropped() async throws {
        let queue = AdmissionQueue<String>(limitPerKey: 1, totalLimit: 1)
        try await queue.enter("a") { _ in }
        let order = Locked<[String]>([])
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<50 {
            tasks.append(await Self.waiter("\(index)", key: "a", queue: queue, order: order))
        }
        queue.leave("a")
        for task in tasks { try await task.value }
        #expect(order.current == (0..<50).map { "\($0)" })
    }

    @Test func keysTakeTurnsWhenTheTotalIsTheLimit() async throws {
        let queue = AdmissionQueue<String>(limitPerKey: 2, totalLimit: 1)
        try await queue.enter("x") { _ in }
        let order = Locked<[String]>([])
        var tasks: [Task<Void, any Error>] = []
        for name in ["a1", "a2", "a3", "b1", "b2", "b3"] {
            tasks.append(await Self.waiter(name, key: String(name.prefix(1)), queue: queue, order: order))
        }
        queue.leave("x")
        for task in tasks { try await task.value }
        #expect(order.current == ["a1", "b1", "a2", "b2", "a3", "b3"])
    }

    @Test func aCancelledWaiterLeavesTheLineAndTheOthersMoveUp() async throws {
        let queue = AdmissionQueue<String>(limitPerKey: 1, totalLimit: 1)
        try await queue.enter("a") { _ in }
        let order = Locked<[String]>([])
        let first = await Self.waiter("first", key: "a", queue: queue, order: order)
        let cancelled = await Self.waiter("cancelled", key: "a", queue: queue, order: order)
        let last = await Self.waiter("last", key: "a", queue: queue, order: order)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        queue.leave("a")
        try await first.value
        try await last.value
        #expect(order.current == ["first", "last"])
    }

    @Test func aDetachedRunKeepsItsTurnUntilItsBodyEndsThoughItsCallerIsCancelled() async throws {
        let queue = AdmissionQueue<String>(limitPerKey: 1, totalLimit: 1)
        let started = Locked(false), released = Locked(false), nextRan = Locked(false)
        let blocked = Task {
            try await queue.runDetached("a") {
                started.withLock { $0 = true }
                while !released.current { usleep(1_000) }
                return 1
            }
        }
        #expect(await eventually { started.current })
        blocked.cancel()
        await #expect(throws: CancellationError.self) { try await blocked.value }
        let next = Task {
            try await queue.runDetached("a") {
                nextRan.withLock { $0 = true }
                return 2
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!nextRan.current, "the cancelled caller's body still holds the turn")
        released.withLock { $0 = true }
        #expect(try await next.value == 2)
    }
}
