import DeckTestSupport
import Foundation
import Locking
import StateDeck
import StateDeckCluster
import StateDeckServer
import Testing
import TestSupport

/// A server of a cluster serves what its store hands over; a page may come to it from another
/// server that was further ahead. The cluster here is the test's hand.
@Suite struct ReplicaCatchUpTests {
    /// A cluster whose store is the test: it feeds the member itself, and elects it by hand
    /// (counting the times it is asked to let go of the lead).
    final class HandFedCluster: DeckCluster, EventRelay {
        let member = Locked<ClusterMember?>(nil)
        let resignations = Locked(0)
        var relay: any EventRelay { self }
        func relay(event: String, data: @autoclosure () -> String, panel: String?) {}
        func join(_ member: ClusterMember) async throws {
            self.member.withLock { $0 = member }
            member.server.hold(header: Array(#"{"title":"Fed","lastEventId":"#.utf8), order: [], panels: [])
        }
        func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer? { nil }
        func settled() async -> Bool { true }
        func resign() { resignations.withLock { $0 += 1 } }
        func leave() async {}
    }

    @Test func aPageFurtherAheadThanThisServerWaitsForItAndGetsOnlyWhatItMissed() async throws {
        let cluster = HandFedCluster()
        var options = LiveDeckServer.Options()
        options.cluster = (cluster, { Deck("Fed") {} })
        let deck = Deck("Fed") {}
        try await LiveDeckServer.run(deck, options) { server in
            let member = try #require(cluster.member.current)
            for id in UInt64(10)...12 { member.server.serve(event: "toast", data: #"{"n":\#(id)}"#, id: id, afterGap: false) }
            async let opened = server.events(lastEventID: "14")   // seen on a server further ahead
            // The stream waits for 14 before it opens; once 13 to 15 came first, it would open at once.
            try #require(await eventually { server.server.deferredRequestCount == 1 && server.liveStreamCount == 0 },
                         "the page's stream is not waiting for the events it has seen")
            for id in UInt64(13)...15 { member.server.serve(event: "toast", data: #"{"n":\#(id)}"#, id: id, afterGap: false) }
            let (_, first) = try await opened.opening()
            #expect(first?.event == "toast")
            #expect(first?.id == "15", "events after 14 only: no older snapshot, nothing twice")
        }
    }

    @Test func aReplicaPassesAToastOnButKeepsItOutOfEveryStateDocument() async throws {
        let cluster = HandFedCluster()
        var options = LiveDeckServer.Options()
        options.cluster = (cluster, { Deck("Fed") {} })
        try await LiveDeckServer.run(Deck("Fed") {}, options) { server in
            let member = try #require(cluster.member.current)
            let page = try await server.events()
            _ = try await page.opening()
            let toast = #"{"id":"toast-6","style":"error","message":"A","durationMs":60000,"position":"bottom"}"#
            member.server.serve(event: "toast", data: toast, id: 10, afterGap: false)
            let passed = try #require(try await page.nextEvent())
            #expect(passed.event == "toast" && passed.data == toast, "passed on to the page as its event")
            member.server.serve(event: "snapshot", data: "", id: 11, afterGap: false)
            let snapshot = try #require(try await page.nextEvent())
            #expect(snapshot.event == "snapshot" && snapshot.id == "11")
            #expect(snapshot.data.contains(#""toast":null"#), "the same document at 11 on every server")
            #expect(try await server.get("/api/state").text.contains(#""toast":null"#))
        }
    }

    @Test func aPageFurtherAheadThanTheServerEverGetsGetsASnapshotAfterTheWait() async throws {
        let cluster = HandFedCluster()
        var options = LiveDeckServer.Options()
        options.cluster = (cluster, { Deck("Fed") {} })
        try await LiveDeckServer.run(Deck("Fed") {}, options) { server in
            let member = try #require(cluster.member.current)
            member.server.serve(event: "toast", data: "{}", id: 10, afterGap: false)
            let started = ContinuousClock.now
            let page = try await server.events(lastEventID: "99")
            let (_, first) = try await page.opening()
            #expect(first?.event == "snapshot")
            #expect(started.duration(to: .now) >= .seconds(2))
        }
    }

    /// While it shows a state of its own (nothing runs the deck), a stream opens with it unnumbered:
    /// the id names the document every server following the same events has, and this is not it.
    @Test func aStreamOpenedWhileTheServerShowsItsOwnStateGetsItWithoutAnID() async throws {
        let cluster = HandFedCluster()
        let makeDeck: @Sendable () -> Deck = { Deck("Fed") { Panel("api", title: "API") { Info(summary: "up") } } }
        var options = LiveDeckServer.Options()
        options.cluster = (cluster, makeDeck)
        try await LiveDeckServer.run(makeDeck(), options) { server in
            let member = try #require(cluster.member.current)
            let before = try await server.events().opening().first
            #expect(before?.event == "snapshot")
            #expect(before?.id != nil)
            member.server.showTrouble(PanelError(.unreachable, title: "No server runs the deck just now"))
            #expect(try await eventually { try await server.get("/api/state").text.contains("No server runs the deck just now") })
            let during = try await server.events().opening().first
            #expect(during?.event == "snapshot")
            #expect(during?.data.contains("No server runs the deck just now") == true)
            #expect(during?.id == nil)
        }
    }

    /// While its pages may be behind (nothing runs the deck), the status page keeps the last state
    /// it knew and says when that was, not the time it is asked.
    @Test func whileThePagesMayBeBehindTheStatusPageSaysWhenItsStateWasLastKnown() async throws {
        let cluster = HandFedCluster()
        let makeDeck: @Sendable () -> Deck = {
            Deck("Fed", status: StatusPage("Fed status", components: [.panel("api", name: "API")])) {
                Panel("api", title: "API") { Info(summary: "up") }
            }
        }
        var options = LiveDeckServer.Options()
        options.cluster = (cluster, makeDeck)
        try await LiveDeckServer.run(makeDeck(), options) { server in
            let member = try #require(cluster.member.current)
            let troubleStarted = Date()
            member.server.showTrouble(PanelError(.unreachable, title: "No server runs the deck just now"))
            #expect(try await eventually { try await server.get("/api/state").text.contains("No server runs the deck just now") })
            // The facts are kept for 5 s: asked after that, they are made anew.
            try await Task.sleep(for: .milliseconds(5_500))
            struct Facts: Decodable { var generatedAt: Date }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .custom { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                return try Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true))
            }
            let facts = try decoder.decode(Facts.self, from: Data(try await server.get("/status/state.json").body))
            #expect(facts.generatedAt >= troubleStarted.addingTimeInterval(-1))
            #expect(facts.generatedAt <= troubleStarted.addingTimeInterval(1), "the time the state was last known, not now")
        }
    }
}
