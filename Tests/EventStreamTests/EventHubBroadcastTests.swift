import EventStream
import Testing

@Suite struct EventHubBroadcastTests {
    @Test(arguments: [1, 3])
    func everySubscriberGetsEachEventOnceAndFailuresAreDroppedWhateverTheWriters(writers: Int) {
        let hub = EventHub(configuration: .init(firstEventID: 1, broadcastWriters: writers))
        // Enough for three writers, with failing sinks in every writer's share.
        let count = 3 * 512 + 7
        let failing = Set(stride(from: 0, to: count, by: 100))
        let sinks = (0..<count).map { TestSink(failAfter: failing.contains($0) ? 1 : nil) }
        for sink in sinks {
            _ = hub.subscribe(sink, lastEventID: "0") { _ in "unused" }
        }
        hub.publish(event: "panel", data: "a")
        hub.publish(event: "panel", data: "b")

        #expect(hub.subscriberCount == sinks.count - failing.count)
        for (index, sink) in sinks.enumerated() {
            let isFailing = failing.contains(index)
            #expect(sink.events.map(\.data) == (isFailing ? [] : ["a", "b"]))
            #expect(sink.finishCount == (isFailing ? 1 : 0))
        }
        hub.close()
    }
}
