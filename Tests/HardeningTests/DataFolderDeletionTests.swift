import Foundation
import Glibc
import TestSupport
import Testing

extension Live {
    /// The history file deleted under a serving `statedeck`: the page is told, later changes go
    /// to a new file, and the next run has them.
    @Suite("History file deleted while serving") struct DataFolderDeletionTests {
        @Test("Deleting history.sqlite3 and its companions shows a notice, and the changes after it are there after a restart",
              .timeLimit(.minutes(1)))
        func aDeletedHistoryFileIsMadeAnew() async throws {
            let folder = try DeckFolder(yaml: """
                title: Deleted history
                defaults: { retry: none, minimumLoading: 0ms, refresh: 1s }
                panels:
                  - { id: tick, command: { run: [date, "+%s%N"] } }
                """)
            defer { folder.remove() }
            let data = folder.path(".statedeck")
            let deletedAt: Date
            let noticedAt: Date
            do {
                let server = try StatedeckProcess(serving: folder)
                defer { server.kill() }
                let port = try #require(await server.port(), "statedeck printed no address")
                let loaded = await eventually(timeout: .seconds(10)) {
                    await Self.state(port: port)?.contains(#""phase":"loaded""#) == true
                }
                try #require(loaded, "the panel did not load")
                // Saved once a second: the file holds what came before.
                try await Task.sleep(for: .seconds(2))
                deletedAt = Date()
                for name in try FileManager.default.contentsOfDirectory(atPath: data) where name.hasPrefix("history.sqlite3") {
                    try FileManager.default.removeItem(atPath: data + "/" + name)
                }
                let noticed = await eventually(timeout: .seconds(10)) {
                    await Self.state(port: port)?.contains("history.sqlite3 was deleted while serving (at ") == true
                }
                try #require(noticed, "no notice of the deletion")
                noticedAt = Date()
                // A change after the notice, for the clean stop to save.
                let changedSince = await eventually(timeout: .seconds(10)) {
                    (try? await Self.changeTimes(port: port))?.contains { $0 > noticedAt } == true
                }
                try #require(changedSince, "no change after the notice")
                server.signal(SIGTERM)
                #expect(await server.exitStatus(timeout: .seconds(5)) == 0)
            }

            let server = try StatedeckProcess(serving: folder)
            defer { server.kill() }
            let port = try #require(await server.port(), "statedeck printed no address")
            let times = try await Self.changeTimes(port: port)
            #expect(times.contains { $0 > noticedAt }, "the changes made after the deletion were lost: \(times)")
            // Anything older was saved in the deleted file before it went.
            #expect(times.allSatisfy { $0 > deletedAt.addingTimeInterval(-1.5) }, "the deleted file's changes came back: \(times)")
            #expect(await Self.state(port: port)?.contains(#""notice":null"#) == true, "the notice was the earlier run's")
            server.signal(SIGTERM)
            #expect(await server.exitStatus(timeout: .seconds(5)) == 0)
        }

        private struct HistoryPage: Decodable {
            struct Entry: Decodable {
                let at: String
            }

            let entries: [Entry]
        }

        /// When each of the tick panel's recorded changes happened, newest first.
        static func changeTimes(port: Int) async throws -> [Date] {
            let history = try await offPool {
                try HTTPTestClient.request("GET", "/api/panels/tick/history?limit=500", port: port).body
            }
            return try JSONDecoder().decode(HistoryPage.self, from: Data(history)).entries.map {
                try Date($0.at, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            }
        }

        static func state(port: Int) async -> String? {
            try? await offPool { try HTTPTestClient.request("GET", "/api/state", port: port).text }
        }
    }
}
