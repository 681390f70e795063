@testable import StateDeckCluster
import Testing

/// The leader's events on their way to the store, and what an action's answer waits for.
struct ClusterLogTests {
    /// An action is answered 2xx only once its events are written: not when they were lost with
    /// the lead (taken and never written), nor in a batch that could not be written.
    @Test func eventsLostWithTheLeadOrAWriteAreNotSettled() async {
        let log = ClusterLog()
        log.setAccepting(true)
        log.relay(event: "panel", data: "{}", panel: "p")
        log.settle(log.take(upTo: 10, waiting: .zero).count)
        #expect(await log.settled(within: .milliseconds(100)), "written")

        log.relay(event: "panel", data: "{}", panel: "p")
        _ = log.take(upTo: 10, waiting: .zero)   // its write breaks with the session
        log.setAccepting(false)
        #expect(await !log.settled(within: .milliseconds(100)), "lost with the lead")

        log.setAccepting(true)
        #expect(await log.settled(within: .milliseconds(100)), "a new lead starts clean")
        log.relay(event: "panel", data: "{}", panel: "p")
        log.settle(log.take(upTo: 10, waiting: .zero).count, lost: true)
        #expect(await !log.settled(within: .milliseconds(100)), "a batch that could not be written")
    }
}
