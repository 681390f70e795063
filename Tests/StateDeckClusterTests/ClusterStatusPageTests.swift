import DeckTestSupport
import Foundation
import StateDeck
import StateDeckCluster
import StateDeckServer
import Testing
import TestSupport

/// The public status page of a cluster: every server, the leader and a replica, says of each line
/// what the deck decided, maintenance and flapping included.
@Suite(.serialized)
struct ClusterStatusPageTests {
    /// A deck whose status page shows `web` and `api` on their own; a panel flaps after more than
    /// one change of health within ten minutes.
    @Sendable static func makeDeck() -> Deck {
        var configuration = Deck.Configuration()
        configuration.flapping = FlappingRule(changes: 1, within: .seconds(600))
        let page = StatusPage("Acme status", components: [.panel("web", name: "Website"), .panel("api", name: "API")])
        return Deck("Shared", configuration: configuration, status: page) {
            Panel("web", title: "Web") { Info(summary: "loaded") }
            Panel("api", title: "API") { Info(summary: "loaded") }
            Panel("itself", title: "The server itself") { Info(summary: "serving") }
        }
    }

    /// The lines' states `/status/state.json` gives, in order.
    static func lineStates(on server: LiveDeckServer) async throws -> [String] {
        struct Facts: Decodable {
            struct Line: Decodable { var state: String }
            var lines: [Line]
        }
        return try JSONDecoder().decode(Facts.self, from: Data(try await server.get("/status/state.json").body)).lines.map(\.state)
    }

    /// On a new store, and on one the previous schema version made, which the members upgrade.
    @Test(arguments: [false, true])
    func aLineUnderMaintenanceAndAFlappingLineReadTheSameOnTheLeaderAndAReplica(previousVersion: Bool) async throws {
        try await TemporaryPostgres.with { store in
            if previousVersion { try ClusterSchemaTests.makePreviousVersion(store) }
            let (leader, replica) = try await PostgresClusterTests.members(of: store, makeDeck: Self.makeDeck)
            // Loaded (up) first, so that each change below is one of health.
            #expect(try await eventually { try await leader.deck.panelState("api").health == .up })
            #expect(try await eventually { try await leader.deck.panelState("web").health == .up })
            _ = try await leader.deck.startMaintenance(panels: ["web"], groups: [], for: .seconds(600), reason: "Upgrade")
            try await leader.deck.push(.error(PanelError(.unreachable, title: "Down for the upgrade")), panel: "web")
            try await leader.deck.push(.error(PanelError(.unreachable)), panel: "api")
            try await leader.deck.push(.loaded(Info(summary: "steady again")), panel: "api")
            #expect(try await leader.deck.panelState("web").maintenance != nil)
            #expect(try await leader.deck.panelState("api").flapping != nil)

            // Asked once each holds the last change: the facts are then kept for seconds.
            for server in [leader, replica] {
                #expect(try await eventually {
                    let web = try await server.get("/api/panels/web").text
                    let api = try await server.get("/api/panels/api").text
                    return web.contains("Down for the upgrade") && !web.contains(#""maintenance":null"#)
                        && api.contains("steady again") && !api.contains(#""flapping":null"#)
                })
            }
            let leaders = try await Self.lineStates(on: leader)
            let replicas = try await Self.lineStates(on: replica)
            #expect(leaders == ["maintenance", "degraded"])
            #expect(replicas == leaders)
            await replica.stop()
            await leader.stop()
        }
    }
}
