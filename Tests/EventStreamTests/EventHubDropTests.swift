import EventStream
import Testing

@Suite struct EventHubDropTests {
    private let hub = EventHub(configuration: .init(firstEventID: 1))

    @Test func sinkFailingOnPublishIsDroppedAndFinished() {
        let failing = TestSink(failAfter: 2)  // takes retry and snapshot only
        let healthy = TestSink()
        _ = hub.subscribe(failing, lastEventID: nil) { _ in "s" }
        _ = hub.subscribe(healthy, lastEventID: nil) { _ in "s" }
        #expect(hub.subscriberCount == 2)
        hub.publish(event: "panel", data: "a")
        #expect(hub.subscriberCount == 1)
        #expect(failing.finishCount == 1)
        hub.publish(event: "panel", data: "b")
        #expect(failing.finishCount == 1)
        #expect(healthy.events.map(\.data) == ["s", "a", "b"])
        #expect(healthy.finishCount == 0)
    }

    @Test(arguments: [0, 1])
    func sinkFailingDuringSubscribeIsNotRegistered(writes: Int) {
        let sink = TestSink(failAfter: writes)
        #expect(hub.subscribe(sink, lastEventID: nil) { _ in "s" } == nil)
        #expect(hub.subscriberCount == 0)
        #expect(sink.finishCount == 1)
    }

    @Test func sinkFailingDuringReplayIsNotRegistered() {
        for n in 0..<3 {
            hub.publish(event: "panel", data: "\(n)")
        }
        let sink = TestSink(failAfter: 2)  // retry and one of three missed events
        #expect(hub.subscribe(sink, lastEventID: "0") { _ in "s" } == nil)
        #expect(hub.subscriberCount == 0)
        #expect(sink.events.map(\.id) == [1])
    }

    @Test func unsubscribeIsIdempotentAndLeavesTheSinkOpen() {
        let leaving = TestSink()
        let staying = TestSink()
        let subscription = try! #require(hub.subscribe(leaving, lastEventID: nil) { _ in "s" })
        _ = hub.subscribe(staying, lastEventID: nil) { _ in "s" }
        hub.unsubscribe(subscription)
        hub.unsubscribe(subscription)
        #expect(hub.subscriberCount == 1)
        hub.publish(event: "panel", data: "a")
        #expect(leaving.events.map(\.data) == ["s"])
        #expect(staying.events.map(\.data) == ["s", "a"])
        #expect(leaving.finishCount == 0)
    }

    @Test func unsubscribeAfterThePublishDroppedTheSinkIsHarmless() {
        let sink = TestSink(failAfter: 2)
        let subscription = try! #require(hub.subscribe(sink, lastEventID: nil) { _ in "s" })
        hub.publish(event: "panel", data: "a")
        hub.unsubscribe(subscription)
        #expect(hub.subscriberCount == 0)
        #expect(sink.finishCount == 1)
    }

    @Test func sinkMayUnsubscribeFromItsCloseHandler() {
        // ResponseStream runs its close handler from inside a failed write or finish.
        let sinks = [TestSink(failAfter: 2), TestSink()]
        for sink in sinks {
            let subscription = try! #require(hub.subscribe(sink, lastEventID: nil) { _ in "s" })
            sink.onClose { [hub] in hub.unsubscribe(subscription) }
        }
        hub.publish(event: "panel", data: "a")
        #expect(hub.subscriberCount == 1)
        hub.close()
        #expect(hub.subscriberCount == 0)
        #expect(sinks.map(\.finishCount) == [1, 1])
    }
}
