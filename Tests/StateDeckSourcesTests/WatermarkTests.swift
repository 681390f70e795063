import Testing
import Threading

/// What catch-ups wait on: a count that rises, and waiters resumed by the raise that reaches them.
@Suite("Watermark")
struct WatermarkTests {
    @Test func aWaiterIsResumedByTheRaiseThatReachesItsMark() async throws {
        let mark = Watermark(level: 3)
        #expect(await mark.wait(for: 3, within: .zero), "a mark already reached returns at once")
        let waiting = Task { await mark.wait(for: 10, within: .seconds(30)) }
        mark.raise(by: 4)
        mark.raise(to: 5)
        #expect(mark.level == 7, "a lower level changes nothing")
        mark.raise(to: 10)
        let started = ContinuousClock.now
        #expect(await waiting.value)
        #expect(started.duration(to: .now) < .seconds(5), "resumed by the raise, not the deadline")
    }

    @Test func aWaiterWhoseMarkIsNotReachedReturnsFalseAtItsDeadline() async throws {
        let mark = Watermark()
        let started = ContinuousClock.now
        #expect(await mark.wait(for: 1, within: .milliseconds(50)) == false)
        #expect(started.duration(to: .now) >= .milliseconds(50))
        mark.raise(to: 1)
        #expect(await mark.wait(for: 1, within: .zero))
    }
}

extension WatermarkTests {
    @Test func aBlockingWaiterIsWokenByARaiseOnAnotherThread() async throws {
        let mark = Watermark()
        let raising = Task.detached {
            try await Task.sleep(for: .milliseconds(20))
            mark.raise(to: 2)
        }
        #expect(mark.waitBlocking(for: 2, within: .seconds(30)))
        try await raising.value
        #expect(mark.waitBlocking(for: 3, within: .milliseconds(20)) == false)
    }
}
