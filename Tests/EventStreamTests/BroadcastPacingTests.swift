@testable import EventStream
import Locking
import TestSupport
import Testing

@Suite struct BroadcastPacingTests {
    private let start = ContinuousClock.now

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        start + .milliseconds(milliseconds)
    }

    @Test func writesWhenThePreviousBroadcastBeganOneAndAHalfWritesAgo() {
        var pacing = BroadcastPacing()
        #expect(pacing.writes(at: at(0)))
        pacing.record(from: at(0), to: at(10), wrote: true)
        #expect(!pacing.writes(at: at(14)))
        #expect(pacing.writes(at: at(15)))
    }

    @Test func anEnqueuedBroadcastKeepsTheLastWritesDuration() {
        var pacing = BroadcastPacing()
        pacing.record(from: at(0), to: at(10), wrote: true)
        pacing.record(from: at(20), to: at(21), wrote: false)
        #expect(!pacing.writes(at: at(34)))
        #expect(pacing.writes(at: at(35)))
    }

    /// A sink whose write takes `writeTime`, recording which of its two methods the hub called.
    private final class TimedSink: EventSink {
        let writeTime: Duration
        let calls = Locked<[String]>([])

        init(writeTime: Duration) {
            self.writeTime = writeTime
        }

        func write(_ bytes: [UInt8]) -> Bool {
            calls.withLock { $0.append("write") }
            let end = ContinuousClock.now + writeTime
            while ContinuousClock.now < end {}
            return true
        }

        func enqueue(_ bytes: [UInt8]) -> Bool {
            calls.withLock { $0.append("enqueue") }
            return true
        }

        func finish() {}
    }

    @Test func hubEnqueuesABurstAndWritesALoneEvent() async {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        let sink = TimedSink(writeTime: .milliseconds(30))
        _ = hub.subscribe(sink, lastEventID: "0") { _ in "unused" }
        sink.calls.withLock { $0 = [] }
        hub.publish(event: "panel", data: "a")
        hub.publish(event: "panel", data: "b")
        hub.publish(event: "panel", data: "c")
        // A pause long enough for the pacing to write again: waited for, since a loaded machine
        // can stretch the measured write (and so the pause it asks for) past any fixed sleep.
        #expect(await eventually { hub.pacing.withLock { $0.writes(at: .now) } })
        hub.publish(event: "panel", data: "d")
        #expect(sink.calls.current == ["write", "enqueue", "enqueue", "write"])
    }
}
