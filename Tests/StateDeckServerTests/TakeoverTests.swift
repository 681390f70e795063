import DeckTestSupport
import Foundation
import StateDeck
import StateDeckCluster
import StateDeckHistory
import StateDeckServer
import Testing

/// A server of a cluster taking over the deck: what it restores, and the actions it takes
/// meanwhile. The cluster is the test's hand.
@Suite struct TakeoverTests {
    /// A history store that kept panel "p" showing "shown before", and reads it slowly: the
    /// window between a server's taking over and its deck being restored, held open.
    private final class SlowlyReadHistory: HistoryStore {
        func memories(of panelIds: [String]) -> [String: PanelMemory] {
            Thread.sleep(forTimeInterval: 0.3)
            let shown = Info(summary: "shown before")
            return ["p": PanelMemory(entries: [], latestInfo: shown, latestError: nil, shown: .loaded(shown), stale: false, health: .up)]
        }

        func changes(of panel: String, _ query: HistoryQuery) throws(HistoryStoreError) -> HistoryPage {
            HistoryPage(entries: [], next: nil)
        }

        func uptime(of panel: String, _ query: TimelineQuery) throws(HistoryStoreError) -> UptimeReport {
            throw .unreadable("not kept here")
        }

        func record(_ change: PanelChange) {}
        var lastEventID: UInt64 { 0 }
        func audit(_ entry: AuditEntry) {}
        func auditEntries(_ query: AuditQuery) throws(HistoryStoreError) -> [AuditEntry] { [] }
        func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64) {}
        var trouble: PanelError? { nil }
        func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void) {}
        func close() {}
    }

    static func deck() -> Deck {
        Deck("Takeover") {
            Panel("p", title: "P") { Info(summary: "loaded by the new leader") }.refresh(.manual)
        }
    }

    @Test func anActionTakenAsTheNewLeaderStartsIsNotUndoneByItsStart() async throws {
        let cluster = ReplicaCatchUpTests.HandFedCluster()
        var options = LiveDeckServer.Options()
        options.debug = true
        options.history = SlowlyReadHistory()
        options.cluster = (cluster, { Self.deck() })
        try await LiveDeckServer.run(Self.deck(), options) { server in
            let member = try #require(cluster.member.current)
            let takingOver = Task { await member.setLeading(true) }
            let deadline = ContinuousClock.now + .seconds(5)
            while !member.isRunningDeck, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            #expect(member.isRunningDeck)
            let forced = ForwardedAction(method: "POST", target: "/api/debug/panels/p/state",
                                         body: Array(#"{"state": "loaded", "info": {"summary": "forced"}}"#.utf8),
                                         caller: .local)
            #expect(await member.server.perform(forced).status == 200)
            await takingOver.value
            let state = try await server.deck.panelState("p")
            #expect(state.latestValidInfo?.summary == "forced", "answered, so kept")
            #expect(state.debugPinned)
        }
    }
}
