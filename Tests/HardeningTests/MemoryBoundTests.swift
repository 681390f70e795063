import Foundation
import Glibc
import TestSupport
import Testing

extension Live {
    /// Whatever its panels load, a running dashboard's memory stays bounded: the replay history
    /// by bytes, Info by its limits, a stalled client by its queue.
    @Suite("Bounded memory") struct MemoryBoundTests {
        @Test("RSS stays within 50 MB of its start over a minute of large lists refreshed every second",
              .timeLimit(.minutes(3)))
        func largeListsRefreshingEverySecondKeepMemoryFlat() async throws {
            // Ten lists of 900 items (about 60 KiB each, under the Info limit) that change every
            // second, and ten of an 860 KB file (over it): the first send large events each
            // refresh, the second their error card once.
            let panels = (0..<10).map { "  - { id: list-\($0), command: { run: [sh, list.sh], output: lines } }" }
                + (0..<10).map { "  - { id: big-\($0), file: { path: big.json, watch: false } }" }
            let folder = try DeckFolder(yaml: """
                title: Memory
                defaults: { retry: none, minimumLoading: 0ms, refresh: 1s, timeout: 5s }
                panels:
                \(panels.joined(separator: "\n"))
                """)
            defer { folder.remove() }
            // One sed over seq: a list a thousandth of a second in the making, so the test's own
            // work does not take the cores from the suites running beside it.
            let list = #"d=$(date +%s%N); seq 900 | sed "s/.*/&\tItem &\t$d/""#
            try Data(list.utf8).write(to: URL(fileURLWithPath: folder.path("list.sh")))
            let items = (0..<12_000).map { #"{"id": "\#($0)", "title": "An item of a large list, number \#($0)"}"# }
            try Data(("[" + items.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: folder.path("big.json")))

            let server = try StatedeckProcess(serving: folder)
            defer { server.kill() }
            let port = try #require(await server.port(), "statedeck printed no address")
            let stalled = try StalledSSEClient(port: port, path: "/events")
            defer { stalled.close() }
            let state = { try await offPool { try HTTPTestClient.request("GET", "/api/state", port: port) } }
            let refused = await eventually(timeout: .seconds(20)) {
                (try? await state())?.text.contains("a panel shows at most 1000.") == true
            }
            #expect(refused, "the large file's card does not name the limit")

            // Warm: every panel has loaded and refreshed a few times.
            try await Task.sleep(for: .seconds(5))
            let start = try #require(Self.residentBytes(of: server.pid))
            var peak = start
            for _ in 0..<60 {
                try await Task.sleep(for: .seconds(1))
                peak = max(peak, try #require(Self.residentBytes(of: server.pid)))
            }
            #expect(peak - start < 50 << 20, "RSS grew from \(start >> 20) MiB to \(peak >> 20) MiB")
            let document = try await state()
            #expect(document.status == 200)
            #expect(document.body.count < 8 << 20, "the state document is \(document.body.count) bytes")
            #expect(await stalled.waitForClose(timeout: .seconds(30)), "a client that reads nothing is never dropped")
        }

        /// Resident bytes of process `pid` (`VmRSS` in `/proc/PID/status`).
        static func residentBytes(of pid: Int32) -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                  let kibibytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            else { return nil }
            return kibibytes << 10
        }
    }
}
