import EventStream
import Testing

@Suite struct EventHubIDTests {
    @Test func idsIncreaseByOneFromTheFirstID() {
        let hub = EventHub(configuration: .init(firstEventID: 500))
        #expect(hub.lastEventID == 499)
        let ids = (0..<5).map { hub.publish(event: "panel", data: "\($0)") }
        #expect(ids == [500, 501, 502, 503, 504])
        #expect(hub.lastEventID == 504)
    }

    @Test func eventsCarryTheirID() {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        let sink = TestSink()
        _ = hub.subscribe(sink, lastEventID: "0") { _ in "unused" }
        hub.publish(event: "panel", data: "a")
        hub.publish(event: "toast", data: "b")
        #expect(sink.events == [
            ReceivedBlock(event: "panel", id: 1, data: "a"),
            ReceivedBlock(event: "toast", id: 2, data: "b"),
        ])
    }

    /// A server showing a state of its own opens streams with it unnumbered: the id is the
    /// document every server following the same events sends, and this one is not that.
    @Test func aSnapshotNotNumberedGoesWithoutAnID() {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        hub.publish(event: "panel", data: "a")
        let own = TestSink()
        _ = hub.subscribe(own, lastEventID: nil) { _ in (data: "own state", numbered: false) }
        let shared = TestSink()
        _ = hub.subscribe(shared, lastEventID: nil) { _ in (data: "state at 1", numbered: true) }
        #expect(own.events == [ReceivedBlock(event: "snapshot", id: nil, data: "own state")])
        #expect(shared.events == [ReceivedBlock(event: "snapshot", id: 1, data: "state at 1")])
    }

    @Test func eventsNumberedElsewhereKeepTheirIDsAndCatchUpAReconnectingClient() {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        #expect(hub.publish(event: "panel", data: "a", id: 1, afterGap: false))
        #expect(hub.publish(event: "panel", data: "b", id: 2, afterGap: false))
        #expect(!hub.publish(event: "panel", data: "again", id: 2, afterGap: false))
        let sink = TestSink()
        _ = hub.subscribe(sink, lastEventID: "1") { _ in "unused" }
        #expect(hub.publish(event: "toast", data: "c", id: 3, afterGap: false))
        #expect(sink.events == [
            ReceivedBlock(event: "panel", id: 2, data: "b"),
            ReceivedBlock(event: "toast", id: 3, data: "c"),
        ])
        #expect(hub.publishedCount == 3)
    }

    @Test func aGapInIDsNumberedElsewhereSendsAClientFromBeforeItOrWithinItASnapshot() {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        hub.publish(event: "panel", data: "a", id: 1, afterGap: false)
        hub.publish(event: "panel", data: "b", id: 2, afterGap: false)
        #expect(hub.publish(event: "panel", data: "after the gap", id: 10, afterGap: true))
        #expect(hub.lastEventID == 10)
        for seen in ["1", "2", "9"] {
            let before = TestSink()
            _ = hub.subscribe(before, lastEventID: seen) { id in "state at \(id)" }
            #expect(before.events == [ReceivedBlock(event: "snapshot", id: 10, data: "state at 10")],
                    "a client at \(seen) may have missed what the gap held")
        }
        let after = TestSink()
        hub.publish(event: "panel", data: "c", id: 11, afterGap: false)
        _ = hub.subscribe(after, lastEventID: "10") { _ in "unused" }
        #expect(after.events == [ReceivedBlock(event: "panel", id: 11, data: "c")])
    }

    @Test func aJumpInIDsNumberedElsewhereKeepsTheEventsButNoIDInItCatchesAClientUp() {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        hub.publish(event: "panel", data: "a", id: 1, afterGap: false)
        hub.publish(event: "panel", data: "b", id: 2, afterGap: false)
        #expect(hub.publish(event: "snapshot", data: "new leader", id: 1_000, afterGap: false))
        hub.publish(event: "panel", data: "c", id: 1_001, afterGap: false)
        let before = TestSink()
        _ = hub.subscribe(before, lastEventID: "1") { _ in "unused" }
        #expect(before.events.map(\.id) == [2, 1_000, 1_001], "every event after the one it saw, across the jump")
        for neverIssued in ["3", "999", "1002"] {
            let sink = TestSink()
            _ = hub.subscribe(sink, lastEventID: neverIssued) { id in "state at \(id)" }
            #expect(sink.events == [ReceivedBlock(event: "snapshot", id: 1_001, data: "state at 1001")],
                    "\(neverIssued) was never issued here: a client naming it gets no events it did not see")
        }
        #expect(hub.publishedCount == 4, "events counted, not ids")
    }

    @Test func anAnnouncedEventHasNoIDAndIsNotKept() {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        hub.publish(event: "panel", data: "a")
        let connected = TestSink()
        _ = hub.subscribe(connected, lastEventID: "1") { _ in "unused" }
        hub.announce(event: "notice", data: "store down")
        #expect(connected.events == [ReceivedBlock(event: "notice", id: nil, data: "store down")])
        #expect(hub.lastEventID == 1)
        let later = TestSink()
        _ = hub.subscribe(later, lastEventID: "1") { _ in "unused" }
        #expect(later.events.isEmpty)
    }

    @Test func defaultFirstIDIsMicrosecondsSince1970() {
        let earlier = EventHub()
        let later = EventHub()
        // 2023-11-14 in microseconds, and a bound far in the future.
        #expect(earlier.lastEventID > 1_700_000_000_000_000)
        #expect(earlier.lastEventID < 4_000_000_000_000_000)
        #expect(later.lastEventID >= earlier.lastEventID)
    }

    @Test func responseHeaders() {
        let headers = Dictionary(uniqueKeysWithValues: EventHub.responseHeaders.map { ($0.name, $0.value) })
        #expect(headers == [
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
        ])
    }
}
