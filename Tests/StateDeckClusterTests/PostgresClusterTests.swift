import DeckTestSupport
import Postgres
import Foundation
import StateDeck
import StateDeckCluster
import StateDeckServer
import Testing
import TestSupport

/// Servers sharing one deck through a real PostgreSQL of the suite's own.
@Suite(.serialized)
struct PostgresClusterTests {
    /// A deck whose panel shows what the test pushes.
    /// A deck whose panel shows what the test pushes; its loads take `loading`.
    @Sendable static func makeDeck(loading: Duration = .zero) -> Deck {
        Deck("Shared") {
            Panel("counter", title: "Counter") {
                try await Task.sleep(for: loading)
                return Info(summary: "loaded")
            }
            Panel("itself", title: "The server itself") { Info(summary: "serving") }
        }
    }

    /// A member of the cluster on `store` whose deck `makeDeck` makes (by default ``makeDeck(loading:)``'s).
    static func member(of store: String, loading: Duration = .zero, heldEvents: Int = 4_096,
                       makeDeck: (@Sendable () -> Deck)? = nil) throws -> LiveDeckServer.Options {
        var options = LiveDeckServer.Options()
        options.debug = true
        options.ownPanelID = "itself"
        var configuration = PostgresCluster.Configuration()
        configuration.electionInterval = .milliseconds(200)
        configuration.heldEvents = heldEvents
        options.cluster = (try PostgresCluster(url: store, configuration: configuration, logger: LiveDeckServer.quietLogger),
                           makeDeck ?? { Self.makeDeck(loading: loading) })
        return options
    }

    /// Two servers of the cluster on `store`, the first started first and leading.
    static func members(of store: TemporaryPostgres, loading: Duration = .zero, makeDeck: (@Sendable () -> Deck)? = nil)
        async throws -> (LiveDeckServer, LiveDeckServer) {
        let deck = makeDeck ?? { Self.makeDeck(loading: loading) }
        let first = try await LiveDeckServer(deck: deck(), options: try member(of: store.url, makeDeck: deck))
        #expect(await eventually { first.server.isRunningDeck })
        let second = try await LiveDeckServer(deck: deck(), options: try member(of: store.url, makeDeck: deck))
        return (first, second)
    }

    /// Events of `stream` up to the first whose data holds `text`, that one included.
    static func events(of stream: AsyncSSEClient, through text: String) async throws -> [SSEEvent] {
        var events: [SSEEvent] = []
        while events.last?.data.contains(text) != true {
            events.append(try #require(try await stream.nextEvent()))
        }
        return events
    }

    static func push(_ summary: String, on server: LiveDeckServer) async throws {
        try await server.deck.push(.loaded(Info(summary: summary)), panel: "counter")
    }

    @Test func oneServerLeadsAndEveryServerStreamsTheSameEventsWithTheSameIDs() async throws {
        try await TemporaryPostgres.with { store in
            let first = try await LiveDeckServer(deck: Self.makeDeck(), options: try Self.member(of: store.url))
            #expect(await eventually { first.server.isRunningDeck })
            let options = try Self.member(of: store.url)
            let cluster = try #require(options.cluster?.cluster as? PostgresCluster)
            let second = try await LiveDeckServer(deck: Self.makeDeck(), options: options)
            #expect(await eventually { cluster.electionsLost.level >= 2 }, "the second tried for the lead, again")
            #expect(first.server.isRunningDeck && !second.server.isRunningDeck, "exactly one leads")

            let streams = [try await first.events(), try await second.events()]
            var snapshots: [UInt64] = []
            for stream in streams {
                let snapshot = try #require(try await stream.opening().first)
                #expect(snapshot.event == "snapshot")
                snapshots.append(try #require(snapshot.id.flatMap(UInt64.init)))
            }
            for summary in ["one", "two", "three"] {
                try await Self.push(summary, on: first)
            }
            // An event made between the two streams' openings (the deck's own panel loading) is
            // in the later snapshot: compare from there.
            let after = try #require(snapshots.max())
            var seen: [[SSEEvent]] = []
            for stream in streams {
                seen.append(try await Self.events(of: stream, through: "three").filter { ($0.id.flatMap(UInt64.init) ?? 0) > after })
            }
            #expect(seen[0] == seen[1], "the same events, the same ids, on both")
            // The counter's first load may come after the streams opened, on a busy machine.
            let pushed = seen[0].filter { $0.data.contains(#""id":"counter""#) }.compactMap { event in
                ["one", "two", "three"].first { event.data.contains(#""summary":"\#($0)""#) }
            }
            #expect(pushed == ["one", "two", "three"])
            let ids = seen[0].compactMap { $0.id.flatMap(UInt64.init) }
            #expect(ids.count == seen[0].count && zip(ids, ids.dropFirst()).allSatisfy { $1 == $0 + 1 })

            #expect(try await eventually {
                let documents = [try await first.get("/api/state").text, try await second.get("/api/state").text]
                return documents[0] == documents[1] && documents[0].contains("three")
            }, "both serve the same state document")
            #expect(try await second.get("/api/panels/counter").text.contains("three"))
            await second.stop()
            await first.stop()
        }
    }

    @Test func whenTheLeaderLeavesAnotherLeadsAndAPageReconnectingThereMissesNothing() async throws {
        try await TemporaryPostgres.with { store in
            // Loads that outlast the test: after the failover the panel shows what it was restored to.
            let slow = Duration.seconds(60)
            let (first, second) = try await Self.members(of: store, loading: slow)
            let page = try await first.events()
            _ = try await page.opening()
            try await Self.push("before", on: first)
            let seen = try #require(try await Self.events(of: page, through: "before").last?.id)
            try await Self.push("unseen", on: first)
            page.close()

            let left = ContinuousClock.now
            await first.stop()
            #expect(await eventually { second.server.isRunningDeck })
            #expect(left.duration(to: .now) < .seconds(5))
            let continued = try #require(try await eventuallyValue {
                let panel = try await second.get("/api/panels/counter").text
                return panel.contains(#""restored":true"#) ? panel : nil
            }, "the new leader's deck, restored")
            #expect(continued.contains("unseen"), "continued from what the pages were shown, without a history store")
            try await Self.push("after", on: second)

            let again = try await second.events(lastEventID: seen)
            let missed = try await Self.events(of: again, through: "after")
            #expect(missed.first?.event == "panel" && missed.first?.data.contains("unseen") == true)
            #expect(missed.filter { $0.event == "snapshot" }.count == 1, "the new leader's deck, once")
            let ids = missed.compactMap { $0.id.flatMap(UInt64.init) }
            let start = try #require(UInt64(seen))
            #expect(ids.count == missed.count && ids.first == start + 1, "every event after the one seen")
            // The new leader numbers from the time: its ids jump, and only there.
            let jumps = zip(missed, missed.dropFirst()).filter { previous, next in
                next.id.flatMap(UInt64.init) != previous.id.flatMap(UInt64.init).map { $0 + 1 }
            }
            #expect(jumps.map(\.1.event) == ["snapshot"], "in order, consecutive but for the new leader's first event")
            #expect(zip(ids, ids.dropFirst()).allSatisfy { $1 > $0 })
            await second.stop()
        }
    }

    /// A new leader's deck starts with a `snapshot`, its panels restored and loading; their first
    /// loads follow as events. Every server sends that snapshot as the deck was at its id, not as
    /// the panels were when it read them, which may be after those loads.
    @Test func aNewLeadersSnapshotIsTheDeckAtItsIDOnEveryServer() async throws {
        try await TemporaryPostgres.with { store in
            let (first, second) = try await Self.members(of: store)
            let third = try await LiveDeckServer(deck: Self.makeDeck(), options: try Self.member(of: store.url))
            let pages = [try await second.events(), try await third.events()]
            for page in pages { _ = try await page.opening() }
            await first.stop()

            // Each page up to the counter's first load by the new leader's deck; its numbered
            // snapshots by id (one without an id is a server's own news: no leader just now).
            var snapshots: [[UInt64: String]] = []
            var takeovers: [SSEEvent] = []
            for page in pages {
                var seen: [SSEEvent] = []
                repeat {
                    seen.append(try #require(try await page.nextEvent()))
                } while !(seen.last?.event == "panel" && seen.last?.data.contains(#""id":"counter","phase":"loaded""#) == true)
                snapshots.append(Dictionary(seen.filter { $0.event == "snapshot" }.compactMap { event in
                    event.id.flatMap(UInt64.init).map { ($0, event.data) }
                }, uniquingKeysWith: { $1 }))
                // The new deck's snapshot comes right before its first event, the counter loading.
                let loading = try #require(seen.firstIndex { $0.data.hasPrefix(#"{"id":"counter","phase":"loading""#) })
                takeovers.append(try #require(seen[..<loading].last { $0.event == "snapshot" && $0.id != nil }))
            }
            #expect(takeovers[0] == takeovers[1], "the new leader's snapshot, the same on every server")
            for (id, data) in snapshots[0] where snapshots[1][id] != nil {
                #expect(data == snapshots[1][id], "snapshot \(id): one id, one document, on every server")
            }
            let document = try #require(try JSONSerialization.jsonObject(with: Data(takeovers[0].data.utf8)) as? [String: Any])
            let panels = try #require(document["panels"] as? [[String: Any]])
            let counter = try #require(panels.first { $0["id"] as? String == "counter" })
            #expect(counter["restored"] as? Bool == true && counter["phase"] as? String != "loaded",
                    "restored at the snapshot; its first load is an event after it")
            #expect(document["lastEventId"] as? NSNumber == takeovers[0].id.flatMap(UInt64.init).map { NSNumber(value: $0) })
            for page in pages { page.close() }
            await third.stop()
            await second.stop()
        }
    }

    /// A server that starts reads only the newest events: the incidents, maintenance and notice
    /// told before them come from the store's rows, as its panels do.
    @Test func aServerJoiningAfterTheEventsThatToldTheDecksIncidentsAndMaintenanceHoldsThem() async throws {
        try await TemporaryPostgres.with { store in
            let (first, second) = try await Self.members(of: store)
            let opened = try await first.post("/api/incidents", json: #"""
                {"title": "Slow answers", "panels": ["counter"], "status": "investigating", "message": "Looking"}
                """#)
            #expect(opened.status == 201)
            #expect(try await first.post("/api/maintenance", json: #"{"panels": ["counter"], "minutes": 30, "reason": "Disk"}"#).status == 201)
            for summary in ["one", "two"] { try await Self.push(summary, on: first) }
            let late = try await LiveDeckServer(deck: Self.makeDeck(), options: try Self.member(of: store.url, heldEvents: 1))

            func deckParts(_ server: LiveDeckServer) async throws -> NSDictionary {
                let document = try #require(try JSONSerialization.jsonObject(with: Data(try await server.get("/api/state").text.utf8))
                    as? [String: Any])
                return NSDictionary(dictionary: ["incidents": document["incidents"] ?? NSNull(),
                                                 "maintenance": document["maintenance"] ?? NSNull(),
                                                 "notice": document["notice"] ?? NSNull()])
            }
            #expect(try await eventually { try await late.get("/api/state").text.contains(#""summary":"two""#) })
            // Every server serves its copy of the store's events, the leader too: each may lag it a moment.
            let agreed = try await eventuallyValue { () async throws -> NSDictionary? in
                let told = try await deckParts(first)
                let held = [try await deckParts(second), try await deckParts(late)]
                return held.allSatisfy { $0 == told } ? told : nil
            }
            let told = try #require(agreed, "the incident and the window, as the leader tells them, on every server")
            #expect((told["incidents"] as? [Any])?.count == 1)
            #expect(((told["maintenance"] as? [String: Any])?["active"] as? [Any])?.count == 1)
            await late.stop()
            await second.stop()
            await first.stop()
        }
    }

    /// The panel's `flapping` in `document`, as the state writes it.
    static func flapping(in document: String) -> String? {
        document.range(of: #""flapping":\{[^}]*\}"#, options: .regularExpression).map { String(document[$0]) }
    }

    @Test func theNextLeaderKeepsAFlappingPanelFlappingSinceTheSameMoment() async throws {
        try await TemporaryPostgres.with { store in
            let deck: @Sendable () -> Deck = {
                var configuration = Deck.Configuration()
                configuration.flapping = FlappingRule(changes: 1, within: .seconds(600))
                return Deck("Shared", configuration: configuration) {
                    Panel("counter", title: "Counter") { Info(summary: "loaded") }
                    Panel("itself", title: "The server itself") { Info(summary: "serving") }
                }
            }
            let (first, second) = try await Self.members(of: store, makeDeck: deck)
            #expect(try await eventually { try await first.get("/api/panels/counter").text.contains(#""health":"up""#) })
            try await first.deck.push(.error(PanelError(.serverError)), panel: "counter")
            try await Self.push("up again", on: first)
            let flapping = try #require(try await eventuallyValue {
                Self.flapping(in: try await first.get("/api/panels/counter").text).flatMap { $0.contains(#""changes":2"#) ? $0 : nil }
            }, "the second change of health began flapping")
            #expect(try await eventually { try await second.get("/api/panels/counter").text.contains("up again") },
                    "the replica holds the change that began flapping")

            await first.stop()
            #expect(await eventually { second.server.isRunningDeck })
            let continued = try #require(try await eventuallyValue {
                let panel = try await second.get("/api/panels/counter").text
                return panel.contains(#""restored":true"#) ? panel : nil
            }, "the new leader's deck, restored")
            #expect(Self.flapping(in: continued) == flapping, "the same since and changes, without a history store")
            await second.stop()
        }
    }

    @Test func anActionSentToAServerThatDoesNotLeadIsAnsweredByTheLeader() async throws {
        try await TemporaryPostgres.with { store in
            let (first, second) = try await Self.members(of: store)
            let page = try await second.events()
            _ = try await page.opening()

            let forced = try await second.post("/api/debug/panels/counter/state",
                                               json: #"{"state": "loaded", "info": {"summary": "forced elsewhere"}}"#)
            #expect(forced.status == 200)
            #expect(forced.text.contains("forced elsewhere"))
            #expect(try await eventually { try await first.get("/api/panels/counter").text.contains("forced elsewhere") },
                    "the leader's deck changed")
            let shown = try await Self.events(of: page, through: "forced elsewhere")
            #expect(shown.last?.event == "panel")

            let local = try await first.post("/api/debug/panels/counter/state",
                                              json: #"{"state": "loaded", "info": {"summary": "kept before the answer"}}"#)
            #expect(local.status == 200)
            let kept = try PostgresConnection(store.url).query(
                "SELECT count(*) FROM statedeck_events WHERE data LIKE '%kept before the answer%'")
            #expect(kept.integer(0, 0) == 1, "the change is in the store when the action is answered")

            let unknown = try await second.post("/api/panels/nope/retry")
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("nope"))
            let retried = try await second.post("/api/panels/counter/retry")
            #expect(retried.status == 202)
            await second.stop()
            await first.stop()
        }
    }

    /// The caller a replica's gate saw travels with the action through the store, and the leader
    /// signs the audit entry with it; a replica without a history store reads the leader's audit.
    @Test func aForwardedActionIsSignedByTheLeaderWithTheCallerTheReplicaSaw() async throws {
        try await TemporaryPostgres.with { store in
            let first = try await LiveDeckServer(deck: Self.makeDeck(), options: try Self.member(of: store.url))
            #expect(await eventually { first.server.isRunningDeck })
            let replicaOptions = try Self.member(of: store.url)
            let second = try await LiveDeckServer(deck: Self.makeDeck(), options: replicaOptions)
            let cluster = try #require(replicaOptions.cluster?.cluster)
            let alice = Caller(name: "alice", role: .operator)
            let answer = await cluster.forward(ForwardedAction(method: "POST", target: "/api/panels/counter/retry", body: [],
                                                               caller: alice))
            #expect(answer?.status == 202)
            let signed = try await first.get("/api/audit").text
            #expect(signed.contains(#""panel":"counter","role":"operator","subject":"","text":"Retried by alice""#))
            #expect(try await second.get("/api/audit").text == signed, "the replica answers with the leader's audit")

            #expect(try await second.post("/api/panels/counter/retry").status == 202)
            #expect(try await first.get("/api/audit").text.contains("Retried by local"), "the caller the replica's gate saw")
            await second.stop()
            await first.stop()
        }
    }

    @Test func whileTheStoreIsDownEveryServerKeepsItsStateSaysSoAndNoneRunsTheDeckThenAllCatchUp() async throws {
        try await TemporaryPostgres.with { store in
            let (first, second) = try await Self.members(of: store)
            try await Self.push("before the outage", on: first)
            #expect(try await eventually { try await second.get("/api/state").text.contains("before the outage") })
            let page = try await second.events()
            _ = try await page.opening()

            try await store.stop()
            let told = try await Self.events(of: page, through: "shared store")
            #expect(told.last?.event == "snapshot", "the whole state, this server's own: no store numbers it")
            #expect(await eventually { !first.server.isRunningDeck }, "a leader without its session stops the deck")
            for server in [first, second] {
                let state = try await server.get("/api/state")
                #expect(state.text.contains("before the outage"))
                #expect(state.text.contains("Can't reach the shared store"))
                let itself = try await server.get("/api/panels/itself").text
                #expect(itself.contains(#""phase":"error""#) && itself.contains("Can't reach the shared store"),
                        "the server's own panel says so too")
            }

            try await store.start()
            let leader = try #require(await eventuallyValue(timeout: .seconds(10)) {
                [first, second].first { $0.server.isRunningDeck }
            })
            #expect(try await eventually { try await second.get("/api/state").text.contains(#""notice":null"#) })
            #expect(try await eventually { try await second.get("/api/panels/itself").text.contains(#""phase":"loaded""#) })
            try await Self.push("after the outage", on: leader)
            let caughtUp = try await Self.events(of: page, through: "after the outage")
            #expect(caughtUp.contains { $0.event == "snapshot" }, "the new leader's deck")
            await second.stop()
            await first.stop()
        }
    }
}
