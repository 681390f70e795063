import DeckTestSupport
import Locking
import StateDeck
import StateDeckCluster
import StateDeckHistory
import StateDeckServer
import Testing
import TestSupport

/// An action let in by a server of a cluster that does not run the deck carries its caller to the
/// one that does, which signs the audit entry with it. The cluster is the test's hand.
@Suite struct ForwardedCallerTests {
    /// A cluster that keeps what it is asked to forward and answers it as the leader would.
    final class ForwardingCluster: DeckCluster, EventRelay {
        let member = Locked<ClusterMember?>(nil)
        let forwarded = Locked<[ForwardedAction]>([])
        var relay: any EventRelay { self }
        func relay(event: String, data: @autoclosure () -> String, panel: String?) {}
        func join(_ member: ClusterMember) async throws {
            self.member.withLock { $0 = member }
            member.server.hold(header: Array(#"{"title":"Fed","lastEventId":"#.utf8), order: [], panels: [])
        }
        func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer? {
            forwarded.withLock { $0.append(action) }
            return ForwardedAction.Answer(status: 202, body: Array(#"{"accepted":true}"#.utf8))
        }
        func settled() async -> Bool { true }
        func resign() {}
        func leave() async {}
    }

    static func deck() -> Deck {
        Deck("Signed") {
            Panel("p", title: "P") { Info(summary: "up") }.refresh(.manual)
        }
    }

    @Test func aServerThatDoesNotRunTheDeckForwardsTheActionWithItsCallerAndSignsNothingItself() async throws {
        let cluster = ForwardingCluster()
        var options = LiveDeckServer.Options()
        options.cluster = (cluster, { Self.deck() })
        try await LiveDeckServer.run(Self.deck(), options) { server in
            #expect(try await server.post("/api/panels/p/retry").status == 202)
            let forwarded = try #require(cluster.forwarded.current.first)
            #expect(forwarded.target == "/api/panels/p/retry")
            #expect(forwarded.caller == .local, "the caller this server's gate saw")
            #expect(try server.server.audit.entries(AuditQuery()).isEmpty, "signed where it runs")
        }
    }

    @Test func theServerRunningTheDeckSignsAForwardedActionWithTheCallerItCarries() async throws {
        let cluster = ForwardingCluster()
        var options = LiveDeckServer.Options()
        options.debug = true
        options.cluster = (cluster, { Self.deck() })
        try await LiveDeckServer.run(Self.deck(), options) { server in
            let member = try #require(cluster.member.current)
            await member.setLeading(true)
            let alice = Caller(name: "alice", role: .operator)
            let retry = ForwardedAction(method: "POST", target: "/api/panels/p/retry", body: [], caller: alice)
            #expect(await member.server.perform(retry).status == 202)
            let forced = ForwardedAction(method: "POST", target: "/api/debug/panels/p/state",
                                         body: Array(#"{"state": "error"}"#.utf8), caller: Caller(name: "design-review", role: .designer))
            #expect(await member.server.perform(forced).status == 200)
            let entries = try server.server.audit.entries(AuditQuery())
            #expect(entries.map { "\($0.text) (\($0.role))" }
                == ["Debug state error forced by design-review (designer)", "Retried by alice (operator)"])
            #expect(cluster.forwarded.current.isEmpty, "run here, not forwarded again")

            let opened = ForwardedAction(method: "POST", target: "/api/incidents", body: Array(#"""
                {"title": "Checkout slow", "panels": ["p"], "status": "investigating", "message": "Looking"}
                """#.utf8), caller: alice)
            let answer = await member.server.perform(opened)
            #expect(answer.status == 201)
            #expect(String(decoding: answer.body, as: UTF8.self).contains(#""author":"alice""#), "the incident's author")
            #expect(try server.server.audit.entries(AuditQuery(limit: 1)).map(\.text) == ["Incident 'Checkout slow' opened by alice"])
            await member.setLeading(false)
        }
    }
}
