@testable import EventStream
import Testing

/// The replay history holds the newest events within both a count and a byte limit, so large
/// events cannot make it grow without bound.
@Suite struct EventHistoryTests {
    static func history(capacity: Int = 100, byteLimit: Int = .max, events sizes: [Int]) -> EventHistory {
        var history = EventHistory(firstID: 1, capacity: capacity, byteLimit: byteLimit)
        for (index, size) in sizes.enumerated() {
            history.append([UInt8](repeating: UInt8(index), count: size))
        }
        return history
    }

    @Test func theNewestEventsWithinTheByteLimitAreKept() {
        let history = Self.history(byteLimit: 1_000, events: [400, 400, 400, 100])
        #expect(history.lastID == 4)
        #expect(history.count == 3)
        #expect(history.byteCount == 900)
        #expect(history.events(after: 1)?.map(\.first) == [1, 2, 3])
        #expect(history.events(after: 0) == nil, "event 1 was dropped: a client that missed it gets a snapshot")
    }

    @Test func anEventLargerThanTheLimitIsNotHeld() {
        let history = Self.history(byteLimit: 1_000, events: [100, 5_000])
        #expect(history.count == 0 && history.byteCount == 0)
        #expect(history.events(after: 2) == [])
        #expect(history.events(after: 1) == nil)
    }

    @Test func theCountLimitHoldsToo() {
        let history = Self.history(capacity: 2, events: [1, 1, 1])
        #expect(history.events(after: 1)?.map(\.first) == [1, 2])
    }

    @Test func idsThatJumpAreHeldAndOnlyIssuedOnesCatchAClientUp() {
        var history = EventHistory(firstID: 1, capacity: 2)
        history.append([1], id: 5)
        history.append([2], id: 9)
        history.append([3], id: 20)
        #expect(history.lastID == 20 && history.count == 2 && history.appendedCount == 3)
        #expect(history.events(after: 5)?.map(\.first) == [2, 3], "5 was dropped, but it names what came after")
        #expect(history.events(after: 9)?.map(\.first) == [3])
        #expect(history.events(after: 20) == [])
        for neverIssued: UInt64 in [4, 6, 10, 19, 21] {
            #expect(history.events(after: neverIssued) == nil, "\(neverIssued) was never issued")
        }
    }

    @Test func afterAGapOnlyTheIDsHeldCatchAClientUp() {
        var history = EventHistory(firstID: 1, capacity: 10)
        history.append([1], id: 1)
        history.append([2], id: 30, afterGap: true)
        history.append([3], id: 31)
        #expect(history.count == 2)
        #expect(history.events(after: 1) == nil, "1 was issued, but what the gap held never reached this history")
        #expect(history.events(after: 29) == nil)
        #expect(history.events(after: 30)?.map(\.first) == [3])
    }

    @Test func bytesStayBoundedOverManyLargeEvents() {
        var history = EventHistory(firstID: 1, capacity: 4096, byteLimit: 8 << 20)
        for _ in 0..<2_000 {
            history.append([UInt8](repeating: 7, count: 900_000))
            #expect(history.byteCount <= 8 << 20)
        }
        #expect(history.count == 9)
    }
}
