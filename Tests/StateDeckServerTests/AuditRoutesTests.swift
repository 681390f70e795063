import DeckTestSupport
import Foundation
import StateDeck
import StateDeckHistory
import StateDeckServer
import TestSupport
import Testing

extension Routed {
    /// Every action route signs what it did, once, when the deck accepted it; `GET /api/audit`
    /// reads the entries back, asked of the responder.
    @Suite struct AuditRoutesTests {
        struct Entry: Decodable, Equatable {
            var actor: String
            var role: String
            var action: String
            var panel: String?
            var subject: String
            var detail: String
            var what: String
            var text: String
        }

        struct Listing: Decodable {
            var entries: [Entry]
        }

        /// A target that takes every notification.
        struct TakingTarget: NotificationTarget {
            let name = "ops-slack"
            func deliver(_ notification: DeckNotification) async throws {}
            func deliver(_ gathered: GatheredNotification) async throws {}
        }

        /// Panel `p`: one item with an action, a recovery option of its own and a notify target;
        /// `beat`, a heartbeat a job pings.
        static func deck() -> Deck {
            Deck("Audited") {
                Panel("p", title: "P") { Info(summary: "up", items: [Info.Item(id: "api-2", title: "api-2")]) }
                    .itemAction("restart", "Restart") { _ in nil }
                    .recovery(.custom("cache", "Use cached copy") {})
                    .notify(TakingTarget())
                Panel("beat", title: "Beat", heartbeat: .every(.seconds(3_600), grace: .seconds(600), pingPath: "/ping/k3y"))
            }
        }

        static func send(_ server: RoutedDeckServer, _ method: String, _ target: String, _ json: String? = nil)
            async throws -> HTTPTestResponse {
            try await server.request(method, target,
                                     headers: [("Host", server.hostHeader)] + (json == nil ? [] : [("Content-Type", "application/json")]),
                                     body: json.map { Array($0.utf8) })
        }

        static func audit(_ server: RoutedDeckServer, _ query: String = "") async throws -> [Entry] {
            let response = try await send(server, "GET", "/api/audit" + query)
            try #require(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            return try response.decode(Listing.self).entries
        }

        /// Each route called, in turn, as a person would: the status it answers and the one entry
        /// it adds, signed by the caller (`local`, a designer, on a server that asks for no token).
        static let actions: [(method: String, target: String, body: String?, status: Int, entry: Entry)] = [
            ("POST", "/api/panels/p/retry", nil, 202,
             Entry(actor: "local", role: "designer", action: "retry", panel: "p", subject: "", detail: "",
                   what: "Retried", text: "Retried by local")),
            ("POST", "/api/panels/p/items/api-2/actions/restart", nil, 202,
             Entry(actor: "local", role: "designer", action: "item_action", panel: "p", subject: "Restart api-2",
                   detail: "restart on api-2", what: "Ran", text: "'Restart api-2' run by local")),
            ("POST", "/api/debug/panels/p/state", #"{"state": "error", "error": {"kind": "timeout"}}"#, 200,
             Entry(actor: "local", role: "designer", action: "debug_state", panel: "p", subject: "error", detail: "timeout",
                   what: "Forced debug state", text: "Debug state error forced by local")),
            ("POST", "/api/panels/p/recover", #"{"option": "cache"}"#, 202,
             Entry(actor: "local", role: "designer", action: "recover", panel: "p", subject: "Use cached copy", detail: "cache",
                   what: "Recovered with", text: "Recovered with 'Use cached copy' by local")),
            ("POST", "/api/maintenance", #"{"panels": ["p", "beat"], "minutes": 30, "reason": "Database upgrade"}"#, 201,
             Entry(actor: "local", role: "designer", action: "maintenance_started", panel: nil, subject: "Database upgrade",
                   detail: "p, beat", what: "Started maintenance", text: "Maintenance 'Database upgrade' started by local")),
            ("DELETE", "/api/maintenance/api-1", nil, 200,
             Entry(actor: "local", role: "designer", action: "maintenance_ended", panel: nil, subject: "Database upgrade",
                   detail: "p, beat", what: "Ended maintenance", text: "Maintenance 'Database upgrade' ended by local")),
            ("POST", "/api/notify/test", #"{"target": "ops-slack"}"#, 200,
             Entry(actor: "local", role: "designer", action: "notify_test", panel: nil, subject: "ops-slack", detail: "",
                   what: "Sent a test notification to", text: "Test notification sent to ops-slack by local")),
        ]

        @Test func eachActionAcceptedAddsExactlyOneEntryWithItsCallerKindPanelAndDetail() async throws {
            var options = LiveDeckServer.Options()
            options.debug = true
            try await RoutedDeckServer.run(Self.deck(), options) { server in
                #expect(try await Self.audit(server).isEmpty)
                try #require(await eventually { (try? await server.deck.panelState("p").latestValidInfo) != nil })
                for (index, action) in Self.actions.enumerated() {
                    let answer = try await Self.send(server, action.method, action.target, action.body)
                    #expect(answer.status == action.status, "\(action.target): \(answer.text)")
                    let entries = try await Self.audit(server)
                    #expect(entries.count == index + 1, "\(action.target) adds one entry")
                    #expect(entries.first == action.entry)
                    if action.target.hasSuffix("/recover") || action.target.hasSuffix("/retry") {
                        _ = await eventually { (try? await server.deck.panelState("p").isLoading) == false }
                    }
                }
                #expect(try await Self.audit(server, "?panel=p").map(\.action) == ["recover", "debug_state", "item_action", "retry"])
                #expect(try await Self.audit(server, "?limit=2").map(\.action) == ["notify_test", "maintenance_ended"])
            }
        }

        struct Opened: Decodable {
            var id: String
        }

        @Test func anIncidentOpenedAndUpdatedIsSignedOnceEach() async throws {
            try await RoutedDeckServer.run(Self.deck()) { server in
                let opened = try await Self.send(server, "POST", "/api/incidents",
                                                 #"{"title": "Checkout slow", "panels": ["p"], "status": "investigating", "message": "Looking"}"#)
                #expect(opened.status == 201)
                let id = try opened.decode(Opened.self).id
                #expect(try await Self.send(server, "POST", "/api/incidents/\(id)/updates",
                                            #"{"status": "monitoring", "message": "Fixed, watching"}"#).status == 200)
                #expect(try await Self.send(server, "POST", "/api/incidents/nope/updates",
                                            #"{"status": "monitoring", "message": "No such"}"#).status == 404)
                #expect(try await Self.audit(server) == [
                    Entry(actor: "local", role: "designer", action: "incident_updated", panel: nil, subject: "Checkout slow",
                          detail: "monitoring", what: "Updated incident (monitoring)", text: "Incident 'Checkout slow' updated (monitoring) by local"),
                    Entry(actor: "local", role: "designer", action: "incident_opened", panel: nil, subject: "Checkout slow",
                          detail: "investigating", what: "Opened incident", text: "Incident 'Checkout slow' opened by local"),
                ])
            }
        }

        @Test func aRefusedOrFailedActionAndAPingAreNotSigned() async throws {
            var options = LiveDeckServer.Options()
            options.debug = true
            try await RoutedDeckServer.run(Self.deck(), options) { server in
                let refused: [(String, String, String?, Int)] = [
                    ("POST", "/api/panels/nope/retry", nil, 404),
                    ("POST", "/api/panels/p/recover", #"{"option": "cache"}"#, 409),
                    ("POST", "/api/panels/p/items/nope/actions/restart", nil, 404),
                    ("POST", "/api/debug/panels/p/state", #"{"state": "sideways"}"#, 400),
                    ("DELETE", "/api/maintenance/nope", nil, 404),
                    ("POST", "/api/notify/test", #"{"target": "nobody"}"#, 404),
                    ("POST", "/ping/k3y", nil, 200),
                ]
                for refusal in refused {
                    let answer = try await Self.send(server, refusal.0, refusal.1, refusal.2)
                    #expect(answer.status == refusal.3, "\(refusal.1)")
                }
                let entries = try await Self.audit(server)
                #expect(entries.isEmpty)
            }
        }

        /// A reason written to read as another's signature: who acted is a field of its own, and
        /// the reason's direction controls are written out, in the entry and its sentence.
        @Test func aReasonImitatingASignatureKeepsItsActorApartAndItsDirectionControlsShown() async throws {
            try await RoutedDeckServer.run(Self.deck()) { server in
                let reason = "Database upgrade' started by \u{202E}ecila\u{202C} \u{2066}\u{200F}\u{061C}"
                let body = String(decoding: try JSONEncoder().encode(["reason": reason]), as: UTF8.self)
                    .replacingOccurrences(of: "{", with: #"{"panels": ["p"], "minutes": 30, "#)
                #expect(try await Self.send(server, "POST", "/api/maintenance", body).status == 201)
                let shown = "Database upgrade' started by [U+202E]ecila[U+202C] [U+2066][U+200F][U+061C]"
                #expect(try await Self.audit(server) == [
                    Entry(actor: "local", role: "designer", action: "maintenance_started", panel: nil, subject: shown, detail: "p",
                          what: "Started maintenance", text: "Maintenance '\(shown)' started by local"),
                ])
            }
        }

        @Test(arguments: [
            ("?limit=0", "limit must be a whole number from 1 to 1000, not '0'"),
            ("?limit=1001", "limit must be a whole number from 1 to 1000, not '1001'"),
            ("?since=yesterday", "since must be an ISO 8601 time"),
            ("?since=2026-11-25T10:00:00Z&until=2026-11-25T09:00:00Z", "since must not be after until"),
        ])
        func aBadParameterIsA400NamingIt(query: String, message: String) async throws {
            try await RoutedDeckServer.run(Self.deck()) { server in
                let answer = try await Self.send(server, "GET", "/api/audit" + query)
                #expect(answer.status == 400)
                #expect(answer.errorCode == "bad_request")
                #expect(answer.text.contains(message))
            }
        }

        /// Without a history store the newest entries are kept in memory, the oldest going first.
        @Test func withoutAHistoryTheNewestEntriesAreKeptInMemory() async throws {
            try await RoutedDeckServer.run(Self.deck()) { server in
                let start = Date()
                for second in 0...AuditTrail.memoryLimit {
                    await server.server.audit.record(AuditEntry(at: start.addingTimeInterval(Double(second)), actor: "caller \(second)",
                                                                role: "operator", action: .retry, panel: "p"))
                }
                let kept = try server.server.audit.entries(AuditQuery(limit: 1_000))
                #expect(kept.count == AuditTrail.memoryLimit)
                #expect(kept.first?.actor == "caller \(AuditTrail.memoryLimit)")
                #expect(kept.last?.actor == "caller 1", "the oldest went first")
            }
        }
    }
}
