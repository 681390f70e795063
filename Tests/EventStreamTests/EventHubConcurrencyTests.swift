import EventStream
import TestSupport
import Testing

@Suite struct EventHubConcurrencyTests {
    private struct Client {
        let sink: TestSink
        let lastEventID: UInt64?
    }

    /// Checks that `sink` got `retry:`, then either a snapshot or the events after
    /// `lastEventID`, then every later event up to `finalID`, each once and in order.
    private func expectContiguous(
        _ sink: TestSink, from lastEventID: UInt64?, to finalID: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let blocks = sink.blocks
        #expect(blocks.first?.retry != nil, sourceLocation: sourceLocation)
        var events = blocks.filter { $0.data != nil }[...]
        var start = lastEventID
        if events.first?.event == "snapshot" {
            start = events.removeFirst().id
        }
        guard let start else {
            Issue.record("no snapshot for a client without Last-Event-ID", sourceLocation: sourceLocation)
            return
        }
        let ids = events.map(\.id)
        let expected = start < finalID ? Array((start + 1)...finalID) : []
        #expect(ids == expected, sourceLocation: sourceLocation)
    }

    @Test func concurrentPublishAndSubscribeNeverLoseDuplicateOrReorder() async {
        let hub = EventHub(configuration: .init(
            historyCapacity: 256, pingInterval: .milliseconds(1), firstEventID: 1
        ))
        hub.startPinging()
        let publishers = 4, eventsPerPublisher = 1000, subscribers = 60
        let total = UInt64(publishers * eventsPerPublisher)

        let clients = await withTaskGroup(of: Client?.self) { group in
            for publisher in 0..<publishers {
                group.addTask {
                    for n in 0..<eventsPerPublisher {
                        hub.publish(event: "panel", data: "\(publisher)/\(n)")
                        if n.isMultiple(of: 16) { await Task.yield() }
                    }
                    return nil
                }
            }
            for client in 0..<subscribers {
                group.addTask {
                    // Spread the subscriptions over the whole run.
                    let due = total * UInt64(client) / UInt64(subscribers)
                    #expect(await eventually { hub.lastEventID >= due })
                    // A third start fresh, a third reconnect a little behind (a replay), and a
                    // third far behind (more than the history holds: a snapshot).
                    let now = hub.lastEventID
                    let lastEventID: UInt64? = switch client % 3 {
                    case 0: nil
                    case 1: now - min(now, UInt64(client))
                    default: now - min(now, 1000)
                    }
                    let sink = TestSink()
                    _ = hub.subscribe(sink, lastEventID: lastEventID.map(String.init)) { _ in "state" }
                    return Client(sink: sink, lastEventID: lastEventID)
                }
            }
            return await group.reduce(into: [Client]()) { clients, client in
                if let client { clients.append(client) }
            }
        }
        hub.close()

        #expect(hub.lastEventID == total)
        #expect(clients.count == subscribers)
        for client in clients {
            expectContiguous(client.sink, from: client.lastEventID, to: total)
        }
        // Every publisher's own events reach a client in the order it published them.
        let fresh = try! #require(clients.first { $0.lastEventID == nil }).sink
        for publisher in 0..<publishers {
            let mine = fresh.events.compactMap(\.data).filter { $0.hasPrefix("\(publisher)/") }
            let numbers = mine.compactMap { Int($0.split(separator: "/")[1]) }
            #expect(numbers == numbers.sorted())
        }
    }

    @Test func oneEventFansOutToTwentyThousandSinksSharingOneBuffer() {
        let hub = EventHub(configuration: .init(firstEventID: 1))
        let sinks = (0..<20_000).map { _ in TestSink() }
        for sink in sinks {
            _ = hub.subscribe(sink, lastEventID: "0") { _ in "unused" }
        }
        #expect(hub.subscriberCount == 20_000)

        hub.publish(event: "panel", data: "{\"id\":\"api\"}")

        let expected = ServerSentEvent(event: "panel", id: 1, data: "{\"id\":\"api\"}").encoded()
        let received = sinks.map { $0.chunks.last ?? [] }
        #expect(received.allSatisfy { $0 == expected })
        // The same storage everywhere: encoded once, never copied per client.
        let buffers = Set(received.map { $0.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } })
        #expect(buffers.count == 1)
        hub.close()
    }
}
