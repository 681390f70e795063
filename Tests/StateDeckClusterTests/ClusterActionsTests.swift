import DeckTestSupport
import EventStream
import Postgres
@testable import StateDeckCluster
@testable import StateDeckServer
import Testing
import TestSupport

/// The leader's side of actions other servers forward to it.
@Suite(.serialized)
struct ClusterActionsTests {
    /// Two actions waiting together, the first slow: the second is answered while the first runs.
    @Test func forwardedActionsAreTakenTogetherNotOneBehindTheOther() async throws {
        try await TemporaryPostgres.with { store in
            try ClusterSchema.prepare(store.url)
            let session = try PostgresConnection(store.url)
            for target in ["/slow", "/fast"] {
                try session.query("INSERT INTO statedeck_actions (method, target, body, caller, role) VALUES ('POST', $1, '', 'ops', 'operator')",
                                  [target])
            }
            let slowEnds = Gate()
            let member = EventNumberingTests.member(runsDeck: true) { action in
                if action.target == "/slow" { await slowEnds.wait() }
                return ForwardedAction.Answer(status: 200, body: Array(action.target.utf8))
            }
            let actions = ClusterActions(url: store.url, timeout: .seconds(10))
            let performing = Task { await actions.performPending(on: member) }
            func answered(_ target: String) throws -> Bool {
                try session.query("SELECT status FROM statedeck_actions WHERE target = $1", [target]).integer(0, 0) == 200
            }
            #expect(try await eventually { try answered("/fast") }, "answered while the slow one still runs")
            #expect(try !answered("/slow"))
            slowEnds.open()
            await performing.value
            #expect(try answered("/slow"))
        }
    }
}
