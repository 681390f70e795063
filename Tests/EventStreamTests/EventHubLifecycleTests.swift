import EventStream
import TestSupport
import Testing

@Suite struct EventHubLifecycleTests {
    private let hub = EventHub(configuration: .init(pingInterval: .milliseconds(50), firstEventID: 1))

    @Test func pingsArriveEveryInterval() async {
        let sink = TestSink()
        _ = hub.subscribe(sink, lastEventID: nil) { _ in "s" }
        hub.startPinging()
        hub.startPinging()  // a second call changes nothing
        #expect(await eventually { sink.blocks.filter { $0.comments == ["ping"] }.count >= 2 })
        hub.close()
        #expect(sink.text.hasSuffix(": ping\n\n"))
    }

    @Test func pingDropsDeadClients() async {
        let dead = TestSink()
        let alive = TestSink()
        _ = hub.subscribe(dead, lastEventID: nil) { _ in "s" }
        _ = hub.subscribe(alive, lastEventID: nil) { _ in "s" }
        dead.disconnect()
        hub.startPinging()
        #expect(await eventually { hub.subscriberCount == 1 })
        #expect(dead.finishCount == 1)
        #expect(alive.finishCount == 0)
        hub.close()
    }

    @Test func closeFinishesEverySinkAndRefusesNewOnes() {
        let sinks = (0..<3).map { _ in TestSink() }
        for sink in sinks {
            _ = hub.subscribe(sink, lastEventID: nil) { _ in "s" }
        }
        hub.startPinging()
        hub.close()
        #expect(sinks.map(\.finishCount) == [1, 1, 1])
        #expect(hub.subscriberCount == 0)

        let late = TestSink()
        #expect(hub.subscribe(late, lastEventID: nil) { _ in "s" } == nil)
        #expect(late.finishCount == 1)
        #expect(late.chunks.isEmpty)
        #expect(hub.publish(event: "panel", data: "after") == 1)
    }

    @Test func closeTwiceIsHarmless() {
        let sink = TestSink()
        _ = hub.subscribe(sink, lastEventID: nil) { _ in "s" }
        hub.close()
        hub.close()
        #expect(sink.finishCount == 1)
    }
}
