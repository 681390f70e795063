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
                let stalled = try await offPool { try StalledStream(try HTTPTestConnection(port: port, receiveBufferSize: 4096)) }
                defer { stalled.close() }
                #expect(await eventually { harness.server.liveStreamCount == 1 })
                let readers = try await offPool {
                    try (0..<3).map { _ in SSEReader(try SSEClient(port: port, path: "/events")) }
                }
                defer { readers.forEach { $0.client.close() } }
                for reader in readers {
                    #expect(try await reader.untilSnapshot())
                }
                #expect(await eventually { harness.server.liveStreamCount == 4 })
                let reading = readers.map { reader in Task { try await reader.summaries(until: "final") } }

                // Each push waits until every reader has the one before: they keep up, the stalled
                // client does not. Kernel buffers absorb a few MB of its events before its queue fills.
                let text = String(repeating: "x", count: 4 * 1024)
                var pushes = 0
                while harness.server.liveStreamCount == 4, pushes < 5000 {
                    pushes += 1
                    try await harness.deck.push(.loaded(Info(summary: "push \(pushes)", text: text)), panel: "a")
                    let delivered = pushes
                    try #require(await eventually { readers.allSatisfy { $0.received >= delivered } }, "readers fell behind")
                }
                try await harness.deck.push(.loaded(Info(summary: "final")), panel: "a")
                #expect(harness.server.liveStreamCount == 3, "the stalled client was still there after \(pushes) pushes")
                #expect(await stalled.waitForClose(timeout: .seconds(10)))
                for task in reading {
                    let summaries = try await task.value
                    #expect(summaries == (1...pushes).map { "push \($0)" } + ["final"])
                }
                #expect(harness.server.liveStreamCount == 3)
                readers.forEach { $0.client.close() }
                #expect(await eventually { harness.server.liveStreamCount == 0 })
            }
        }
    }
}

/// An `/events` client that never reads; its small receive buffer fills quickly.
///
/// Unchecked: only `waitForClose` and `close` touch the connection, one at a time.
final class StalledStream: @unchecked Sendable {
    private let connection: HTTPTestConnection

    init(_ connection: HTTPTestConnection) throws {
        self.connection = connection
        try connection.send("GET", "/events")
    }

    /// True once the server closes the connection (what arrives meanwhile is dropped).
    func waitForClose(timeout: Duration = defaultWait) async -> Bool {
        (try? await offPool { self.connection.waitForClose(timeout: timeout) }) ?? false
    }

    func close() {
        connection.close()
    }
}

/// Reads one `SSEClient` off the pool.
///
/// Unchecked: each reader is driven by one task at a time.
final class SSEReader: @unchecked Sendable {
    let client: SSEClient
    private let count = Counter()

    /// Panel events with info read so far.
    var received: Int { count.count }

    init(_ client: SSEClient) {
        self.client = client
    }

    /// True once the first `snapshot` event arrived.
    func untilSnapshot() async throws -> Bool {
        try await offPool { try self.client.nextEvent(timeout: defaultWait)?.event == "snapshot" }
    }

    /// The summaries of the info of every panel event, up to and including `last`.
    func summaries(until last: String) async throws -> [String] {
        try await offPool {
            var summaries: [String] = []
            while summaries.last != last, let event = try self.client.nextEvent(timeout: .seconds(10)) {
                guard event.event == "panel",
                      let object = try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any],
                      let info = object["latestValidInfo"] as? [String: Any],
                      let summary = info["summary"] as? String
                else { continue }
                summaries.append(summary)
                self.count.increment()
            }
            return summaries
        }
    }
}
