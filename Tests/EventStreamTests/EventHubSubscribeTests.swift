import EventStream
import Locking
import TestSupport
import Testing

@Suite struct EventHubSubscribeTests {
    /// A hub holding events 100...104, of which only the newest three are still kept.
    private func hubWithOverflowedHistory() -> EventHub {
        let hub = EventHub(configuration: .init(historyCapacity: 3, firstEventID: 100))
        for n in 100...104 {
            hub.publish(event: "panel", data: "e\(n)")
        }
        return hub
    }

    @Test func withoutLastEventIDTheClientGetsRetryThenASnapshot() {
        let hub = EventHub(configuration: .init(firstEventID: 10))
        hub.publish(event: "panel", data: "before")
        let sink = TestSink()
        #expect(hub.subscribe(sink, lastEventID: nil) { _ in "{\"state\":1}" } != nil)
        hub.publish(event: "panel", data: "after")
        #expect(sink.blocks == [
            ReceivedBlock(retry: 2000),
            ReceivedBlock(event: "snapshot", id: 10, data: "{\"state\":1}"),
            ReceivedBlock(event: "panel", id: 11, data: "after"),
        ])
        #expect(hub.subscriberCount == 1)
    }

    @Test func snapshotBeforeAnyEventHasTheIDBeforeTheFirst() {
        let hub = EventHub(configuration: .init(firstEventID: 10))
        let sink = TestSink()
        _ = hub.subscribe(sink, lastEventID: nil) { lastEventID in "at \(lastEventID)" }
        #expect(sink.events == [ReceivedBlock(event: "snapshot", id: 9, data: "at 9")])
    }

    @Test func reconnectingClientGetsExactlyTheMissedEvents() {
        let hub = hubWithOverflowedHistory()
        let sink = TestSink()
        var snapshots = 0
        _ = hub.subscribe(sink, lastEventID: "102") { _ in
            snapshots += 1
            return "s"
        }
        hub.publish(event: "toast", data: "live")
        #expect(snapshots == 0)
        #expect(sink.events == [
            ReceivedBlock(event: "panel", id: 103, data: "e103"),
            ReceivedBlock(event: "panel", id: 104, data: "e104"),
            ReceivedBlock(event: "toast", id: 105, data: "live"),
        ])
    }

    @Test func replaysFromJustBeforeTheOldestHeldEvent() {
        let sink = TestSink()
        _ = hubWithOverflowedHistory().subscribe(sink, lastEventID: "101") { _ in "s" }
        #expect(sink.events.map(\.id) == [102, 103, 104])
        #expect(sink.events.allSatisfy { $0.event == "panel" })
    }

    @Test func upToDateClientGetsNothingToCatchUp() {
        let sink = TestSink()
        _ = hubWithOverflowedHistory().subscribe(sink, lastEventID: "104") { _ in "s" }
        #expect(sink.blocks == [ReceivedBlock(retry: 2000)])
    }

    @Test func clientOfAFreshHubThatSawItsSnapshotGetsNothing() {
        let hub = EventHub(configuration: .init(firstEventID: 100))
        let sink = TestSink()
        _ = hub.subscribe(sink, lastEventID: "99") { _ in "s" }
        #expect(sink.events.isEmpty)
    }

    @Test(arguments: [
        "100",                  // too old: 101 and later are needed, 101 was dropped
        "0",                    // far older, e.g. from an earlier server run
        "105",                  // from the future: never issued by this hub
        "18446744073709551615",
        "abc", "", "-1", "10 2", "1e3",
    ])
    func unusableLastEventIDGetsASnapshot(lastEventID: String) {
        let sink = TestSink()
        _ = hubWithOverflowedHistory().subscribe(sink, lastEventID: lastEventID) { _ in "state" }
        #expect(sink.events == [ReceivedBlock(event: "snapshot", id: 104, data: "state")])
    }

    @Test func retryIsSentOnceFirstWithTheConfiguredDelay() async {
        let hub = EventHub(configuration: .init(
            pingInterval: .milliseconds(10), reconnectDelay: .milliseconds(1500), firstEventID: 1
        ))
        let sink = TestSink()
        _ = hub.subscribe(sink, lastEventID: nil) { _ in "s" }
        hub.startPinging()
        for n in 0..<3 {
            hub.publish(event: "panel", data: "\(n)")
        }
        #expect(await eventually { sink.blocks.contains { !$0.comments.isEmpty } })
        hub.close()
        #expect(sink.blocks.first == ReceivedBlock(retry: 1500))
        #expect(sink.blocks.filter { $0.retry != nil }.count == 1)
    }

    @Test func snapshotMayReadStateThatPublishersUpdateUnderTheirOwnLock() {
        // How the server's state mirror uses the hub: update, release, then publish.
        let hub = EventHub(configuration: .init(firstEventID: 1))
        let state = Locked(0)
        state.withLock { $0 = 1 }
        hub.publish(event: "panel", data: "1")
        let sink = TestSink()
        _ = hub.subscribe(sink, lastEventID: nil) { _ in String(state.current) }
        #expect(sink.events == [ReceivedBlock(event: "snapshot", id: 1, data: "1")])
    }
}
