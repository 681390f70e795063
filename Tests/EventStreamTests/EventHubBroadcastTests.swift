import EventStream
import Testing

@Suite struct EventHubBroadcastTests {
    @Test(arguments: [1, 3])
    func everySubscriberGetsEachEventOnceAndFailuresAreDroppedWhateverTheWriters(writers: Int) {
        let hub = EventHub(configuration: .init(firstEventID: 1, broadcastWriters: writers))
        // Enough for three writers, with failing sinks in every writer's share.
        let sinks = (0..<(3 * 512 + 7)).map { TestSink(failAfter: $0.isMultiple(of: 100) ? 1 : nil) }
        for sink in sinks {
            _ = hub.subscribe(sink, lastEventID: "0") { _ in "unused" }
        }
        let failing = sinks.indices.filter { $0.isMultiple(of: 100) }
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
