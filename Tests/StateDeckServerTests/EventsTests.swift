import StateDeck
import TestSupport
import Testing

extension Live {
    /// `GET /events` through the whole server: snapshot, live events, catch-up, pings, many
    /// clients, dead and slow clients, and stopping.
    @Suite struct EventsTests {
        private static var quickPing: LiveServer.Options {
            var options = LiveServer.Options()
            options.pingInterval = .milliseconds(100)
            return options
        }

        @Test func streamHeadersAreEventStreamNoStoreAndNoBuffering() async throws {
            try await LiveServer.run { server in
                let client = try await server.events()
                defer { client.close() }
                #expect(client.status == 200)
                #expect(client.header("Content-Type")?.hasPrefix("text/event-stream") == true)
                #expect(client.header("Cache-Control") == "no-store")
                #expect(client.header("X-Accel-Buffering") == "no")
            }
        }

        @Test func headOnEventsAnswersTheHeadersAndKeepsNoStream() async throws {
            try await LiveServer.run { server in
                let response = try await server.request("HEAD", "/events")
                #expect(response.status == 200)
                #expect(response.header("Content-Type")?.hasPrefix("text/event-stream") == true)
                #expect(await eventually { server.liveStreamCount == 0 })
            }
        }

        @Test func streamStartsWithRetryThenTheStateDocumentAsSnapshot() async throws {
            try await LiveServer.run { server in
                let client = try await server.events()
                defer { client.close() }
                let (retry, first) = try await client.opening()
                #expect(retry == .retry(2000))
                let snapshot = try #require(first)
                #expect(snapshot.event == "snapshot")
                // Nothing changed since: the snapshot is the /api/state document, byte for byte.
                #expect(snapshot.data == (try await server.get("/api/state")).text)
                let state = try snapshot.decode(WireState.self)
                #expect(state.lastEventId == snapshot.number)
                #expect(state.panels.map(\.id) == TestDeck.panelIds)
            }
        }

        @Test func publishedChangeArrivesWithinMilliseconds() async throws {
            try await LiveServer.run { server in
                let client = try await server.events()
                defer { client.close() }
                let snapshotID = try #require(try await client.opening().first?.number)

                let pushed = ContinuousClock.now
                try await server.push("Pushed")
                let event = try #require(try await client.nextEvent())
                #expect(ContinuousClock.now - pushed < .milliseconds(250))
                #expect(event.event == "panel")
                #expect(event.number == snapshotID + 1)
                #expect(try event.decode(WirePanel.self).latestValidInfo?.summary == "Pushed")

                // The same through the debug API, timed from the request.
                let posted = ContinuousClock.now
                #expect(try await server.debug("jobs", #"{"state":"loading"}"#).status == 200)
                let forced = try #require(try await client.nextEvent())
                #expect(ContinuousClock.now - posted < .milliseconds(250))
                #expect(forced.number == snapshotID + 2)
                let panel = try forced.decode(WirePanel.self)
                #expect(panel.id == "jobs" && panel.phase == .loading && panel.debugPinned)
            }
        }

        @Test func pingArrivesEveryIntervalAndRetryIsSentOnce() async throws {
            try await LiveServer.run(Self.quickPing) { server in
                let client = try await server.events()
                defer { client.close() }
                var items: [SSEItem] = []
                let started = ContinuousClock.now
                while items.filter({ $0 == .comment("ping") }).count < 3 {
                    items.append(try #require(try await client.next(timeout: .seconds(2))))
                    if items.count == 3 { try await server.push("Between pings") }
                }
                #expect(ContinuousClock.now - started < .seconds(2))
                #expect(items.first == .retry(2000))
                #expect(items.filter { if case .retry = $0 { true } else { false } }.count == 1)
                let events = items.compactMap { if case .event(let event) = $0 { event } else { nil } }
                #expect(events.map(\.event) == ["snapshot", "panel"])
            }
        }

        @Test func reconnectingWithLastEventIDGetsExactlyTheMissedEventsInOrder() async throws {
            try await LiveServer.run { server in
                let first = try await server.events()
                let lastSeen = try #require(try await first.opening().first?.number)
                first.close()

                for index in 1...3 {
                    try await server.push("Missed \(index)")
                }
                let again = try await server.events(lastEventID: String(lastSeen))
                defer { again.close() }
                #expect(try await again.next() == .retry(2000))
                var missed: [SSEEvent] = []
                for _ in 1...3 {
                    missed.append(try #require(try await again.nextEvent()))
                }
                #expect(missed.map(\.event) == ["panel", "panel", "panel"])
                #expect(missed.map(\.number) == [lastSeen + 1, lastSeen + 2, lastSeen + 3])
                #expect(try missed.map { try $0.decode(WirePanel.self).latestValidInfo?.summary }
                    == ["Missed 1", "Missed 2", "Missed 3"])

                // Nothing else was sent: the next event is the one published now.
                try await server.push("Live")
                let live = try #require(try await again.nextEvent())
                #expect(live.number == lastSeen + 4)
                #expect(try live.decode(WirePanel.self).latestValidInfo?.summary == "Live")
            }
        }

        @Test func reconnectingWithTheNewestIDGetsNothingButWhatComesNext() async throws {
            try await LiveServer.run { server in
                let lastEventID = try await server.state().lastEventId
                let client = try await server.events(lastEventID: String(lastEventID))
                defer { client.close() }
                try await server.push("Next")
                #expect(try await client.next() == .retry(2000))
                let next = try #require(try await client.nextEvent())
                #expect(next.event == "panel")
                #expect(next.number == lastEventID + 1)
            }
        }

        @Test func tooOldGarbageOrFutureIDGetsASnapshot() async throws {
            try await LiveServer.run { server in
                let lastEventID = try await server.state().lastEventId
                for id in [
                    "1", "0", String(lastEventID - 10_000), String(lastEventID + 1000),
                    "abc", "-5", "12abc", "", String(repeating: "9", count: 40),
                ] {
                    let client = try await server.events(lastEventID: id)
                    defer { client.close() }
                    let (retry, first) = try await client.opening()
                    #expect(retry == .retry(2000), "\(id)")
                    let snapshot = try #require(first, "\(id)")
                    #expect(snapshot.event == "snapshot", "\(id)")
                    #expect(snapshot.number == lastEventID, "\(id)")
                    #expect(try snapshot.decode(WireState.self).lastEventId == lastEventID, "\(id)")
                }
            }
        }

        @Test func fiveHundredStreamsAllReceiveOnePublishedEvent() async throws {
            try await LiveServer.run(Self.quickPing) { server in
                let clients = try await server.events(count: 500)
                let snapshots = try await offPool {
                    try clients.map { try $0.blocking.nextEvent()?.number }
                }
                #expect(Set(snapshots).count == 1)
                #expect(await eventually { server.liveStreamCount == 500 })

                try await server.push("To everyone")
                let received = try await offPool {
                    try clients.map { try $0.blocking.nextEvent()?.id }
                }
                let expected = String(try #require(snapshots.first ?? nil) + 1)
                #expect(received.count == 500)
                #expect(received.allSatisfy { $0 == expected })

                clients.forEach { $0.close() }
                #expect(await eventually { server.liveStreamCount == 0 })
            }
        }

        @Test func departedClientsAreReleasedAtOnce() async throws {
            try await LiveServer.run { server in
                let clients = try await server.events(count: 20)
                _ = try await offPool { try clients.map { try $0.blocking.nextEvent() } }
                #expect(await eventually { server.liveStreamCount == 20 })
                clients.forEach { $0.close() }
                // No ping for 15 s and no event: the hang-up itself releases each stream.
                #expect(await eventually(timeout: .seconds(2)) { server.liveStreamCount == 0 })
            }
        }

        @Test func clientThatStopsReadingIsDroppedWhileOthersKeepReceiving() async throws {
            var options = Self.quickPing
            options.streamCapacity = 64 * 1024
            try await LiveServer.run(options) { server in
                let port = server.port
                let stalled = try StalledSSEClient(port: port, path: "/events")
                defer { stalled.close() }
                // One at a time, so the stalled stream is open before the reader's.
                try #require(await eventually { server.liveStreamCount == 1 })
                let reader = try await server.events()
                defer { reader.close() }
                _ = try await reader.opening()
                try #require(await eventually { server.liveStreamCount == 2 })

                // Each event is some 13 KB; kernel buffers absorb a few MB before the queue fills.
                let text = String(repeating: "x", count: 4 * 1024)
                var pushes = 0
                while server.liveStreamCount == 2, pushes < 5000 {
                    pushes += 1
                    try await server.push("Push \(pushes)", text: text)
                    let event = try #require(try await reader.nextEvent())
                    try #require(try event.decode(WirePanel.self).latestValidInfo?.summary == "Push \(pushes)")
                }
                #expect(server.liveStreamCount == 1, "still 2 after \(pushes) pushes")
                #expect(await stalled.waitForClose())

                try await server.push("After the drop")
                #expect(try await reader.nextEvent()?.decode(WirePanel.self).latestValidInfo?.summary == "After the drop")

                reader.close()
                #expect(await eventually { server.liveStreamCount == 0 })
            }
        }

        @Test func stoppingWithStreamsOpenIsPromptAndEndsThem() async throws {
            try await LiveServer.run { server in
                let clients = try await server.events(count: 50)
                _ = try await offPool { try clients.map { try $0.blocking.nextEvent() } }
                #expect(await eventually { server.liveStreamCount == 50 })
                // A load held in flight must not hold the stop up either.
                server.scripts.api.hold()
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                #expect(await eventually { server.scripts.api.waiting == 1 })

                let started = ContinuousClock.now
                await server.deckServer.stop()
                #expect(ContinuousClock.now - started < .seconds(1))
                #expect(server.liveStreamCount == 0)
                let ended = try await offPool {
                    clients.map { $0.blocking.waitForEnd(timeout: .seconds(2)) }
                }
                #expect(!ended.contains(false))
                clients.forEach { $0.close() }
                // The deck's work was cancelled, and nothing is accepted any more.
                #expect(await eventually { server.scripts.api.waiting == 0 })
                await #expect(throws: TestClientError.self) { try await server.get("/index.html") }
            }
        }
    }
}
