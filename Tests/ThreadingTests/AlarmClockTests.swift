import Locking
import TestSupport
import Testing
import Threading

/// The alarm thread every deck's deadlines ring on, and the clock that sleeps on it.
@Suite("AlarmClock")
struct AlarmClockTests {
    /// When each alarm rang, by name.
    typealias Rings = Locked<[(name: Int, at: ContinuousClock.Instant)]>

    @Test func alarmsRingInTheOrderOfTheirDeadlinesAndNeverBefore() async throws {
        let start = ContinuousClock.now
        // Set in a scrambled order: the k-th deadline is 20 + 3·((7k) mod 40) ms away.
        let deadlines = (0..<40).map { start + .milliseconds(20 + 3 * ((7 * $0) % 40)) }
        let rings = Rings([])
        for (name, deadline) in deadlines.enumerated() {
            AlarmThread.shared.schedule(at: deadline) { rings.withLock { $0.append((name, .now)) } }
        }
        #expect(await eventually { rings.current.count == deadlines.count })
        let rung = rings.current
        #expect(rung.map(\.name) == deadlines.indices.sorted { deadlines[$0] < deadlines[$1] })
        for ring in rung { #expect(ring.at >= deadlines[ring.name]) }
    }

    @Test func aCancelledAlarmNeverRings() async throws {
        let rings = Rings([])
        let soon = ContinuousClock.now + .milliseconds(30)
        let cancelled = AlarmThread.shared.schedule(at: soon) { rings.withLock { $0.append((0, .now)) } }
        AlarmThread.shared.schedule(at: soon + .milliseconds(20)) { rings.withLock { $0.append((1, .now)) } }
        #expect(AlarmThread.shared.cancel(cancelled))
        // The later alarm rang: the cancelled one's time passed before it.
        #expect(await eventually { !rings.current.isEmpty })
        #expect(rings.current.map(\.name) == [1])
        #expect(!AlarmThread.shared.cancel(cancelled))
    }

    @Test func anEarlierAlarmSetWhileTheThreadWaitsForALaterOneRingsOnTime() async throws {
        let late = AlarmThread.shared.schedule(at: .now + .seconds(30)) {}
        defer { AlarmThread.shared.cancel(late) }
        let deadline = ContinuousClock.now + .milliseconds(20)
        let rang = Locked<ContinuousClock.Instant?>(nil)
        AlarmThread.shared.schedule(at: deadline) { rang.withLock { $0 = .now } }
        let at = try #require(await eventuallyValue { rang.current })
        #expect(at >= deadline && at < deadline + .seconds(1))
        #expect(AlarmThread.shared.cancel(late), "the later alarm is still set")
    }

    @Test func aSleepEndsAtItsDeadline() async throws {
        let deadline = ContinuousClock.now + .milliseconds(40)
        try await AlarmClock().sleep(until: deadline)
        #expect(ContinuousClock.now >= deadline)
    }

    @Test func aSleepUntilAPassedDeadlineReturnsAtOnceUnlessCancelled() async throws {
        try await AlarmClock().sleep(until: .now - .seconds(1))
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await AlarmClock().sleep(until: .now - .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test func aCancelledSleepThrowsAtOnce() async throws {
        let started = ContinuousClock.now
        let sleeper = Task { try await AlarmClock().sleep(until: .now + .seconds(30)) }
        try await Task.sleep(for: .milliseconds(20))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
