import DeckTestSupport
import Foundation
import StateDeck
import TestSupport
import Testing

extension Live {
    /// A client that stops reading its event stream is dropped; nobody else notices.
    @Suite("Stream isolation") struct StreamIsolationTests {
        @Test("A client that stops reading is dropped, and every other stream gets every event in order")
        func stalledClientIsDropped() async throws {
            // Departed clients are noticed at the next write: pings come often here.
            var options = LiveDeckServer.Options()
            options.pingInterval = .milliseconds(300)
            try await LiveDeckServer.run(Fixtures.instantDeck(), options, files: Fixtures.pageFiles) { harness in
                let port = harness.port
                // The first load done, so every event after the snapshot is one of the pushes.
                #expect(try await eventually { try await harness.deck.panelState("a").phase == .loaded })
                let stalled = try await offPool { try StalledSSEClient(port: port, path: "/events") }
                defer { stalled.close() }
                #expect(await eventually { harness.server.liveStreamCount == 1 })
                let readers = try await harness.events(count: 3)
                defer { readers.forEach { $0.close() } }
                for reader in readers {
                    #expect(try await reader.nextEvent()?.event == "snapshot")
                }
                #expect(await eventually { harness.server.liveStreamCount == 4 })
                let received = readers.map { _ in Counter() }
                let reading = zip(readers, received).map { reader, count in
                    Task { try await Self.summaries(on: reader, until: "final", counting: count) }
                }

                // Each push waits until every reader has the one before: they keep up, the stalled
                // client does not. Kernel buffers absorb a few MB of its events before its queue fills.
                let text = String(repeating: "x", count: 4 * 1024)
                var pushes = 0
                while harness.server.liveStreamCount == 4, pushes < 5000 {
                    pushes += 1
                    try await harness.deck.push(.loaded(Info(summary: "push \(pushes)", text: text)), panel: "a")
                    let delivered = pushes
                    try #require(await eventually { received.allSatisfy { $0.count >= delivered } }, "readers fell behind")
                }
                try await harness.deck.push(.loaded(Info(summary: "final")), panel: "a")
                #expect(harness.server.liveStreamCount == 3, "the stalled client was still there after \(pushes) pushes")
                #expect(await stalled.waitForClose(timeout: .seconds(10)))
                for task in reading {
                    let summaries = try await task.value
                    #expect(summaries == (1...pushes).map { "push \($0)" } + ["final"])
                }
                #expect(harness.server.liveStreamCount == 3)
                readers.forEach { $0.close() }
                #expect(await eventually { harness.server.liveStreamCount == 0 })
            }
        }

        /// The summaries of the info of every panel event on `stream`, up to and including
        /// `last`; `count` counts them as they arrive.
        static func summaries(on stream: AsyncSSEClient, until last: String, counting count: Counter) async throws -> [String] {
            try await offPool {
                var summaries: [String] = []
                while summaries.last != last, let event = try stream.blocking.nextEvent(timeout: .seconds(10)) {
                    guard event.event == "panel",
                          let object = try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any],
                          let info = object["latestValidInfo"] as? [String: Any],
                          let summary = info["summary"] as? String
                    else { continue }
                    summaries.append(summary)
                    count.increment()
                }
                return summaries
            }
        }
    }
}
