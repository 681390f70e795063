import DeckTestSupport
import Foundation
import StateDeck
import TestSupport
import Testing

extension Live {
    /// A heartbeat driven by `curl` from a shell loop, as a cron job drives it, over a real socket.
    @Suite struct HeartbeatLiveTests {
        static let key = "shell-loop-key-0123456789"

        /// Runs `script` with `sh -c`, `URL` in its environment, off the cooperative pool.
        static func shell(_ script: String, url: String) async throws -> Int32 {
            try await offPool {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", script]
                process.environment = ["URL": url, "PATH": "/usr/bin:/bin"]
                try process.run()
                process.waitUntilExit()
                return process.terminationStatus
            }
        }

        @Test func aShellLoopOfCurlsKeepsThePanelUpUntilItStops() async throws {
            let deck = Deck("Cron", panels: [
                Panel("job", title: "Job", heartbeat: .every(.seconds(1), grace: .seconds(1), pingPath: "/ping/\(Self.key)")),
            ])
            try await LiveDeckServer.run(deck) { server in
                let url = "http://127.0.0.1:\(server.port)/ping/\(Self.key)"
                let status = try await Self.shell("""
                    for run in 1 2 3; do
                      curl -fsS -m 5 "$URL/start" > /dev/null || exit 1
                      echo "run $run copied" | curl -fsS -m 5 --data-binary @- "$URL/$?" > /dev/null || exit 1
                    done
                    """, url: url)
                #expect(status == 0)
                let up = try await server.deck.panelState("job")
                #expect(up.health == .up)
                #expect(up.latestValidInfo?.summary == "run 3 copied")
                #expect(up.heartbeat?.runningSince == nil)
                let lastRun = try #require(up.heartbeat?.lastRun)
                let late = try #require(await eventuallyValue {
                    let state = try? await server.deck.panelState("job")
                    return state?.phase == .error ? state : nil
                })
                #expect(late.latestValidError?.kind == .pingMissed)
                #expect(late.health == .down)
                #expect(try #require(late.heartbeat?.lateAt).timeIntervalSince(lastRun) == 2, "a period and its grace")
                #expect(try await Self.shell(#"curl -fsS -m 5 --data-binary "disk full" "$URL/fail" > /dev/null"#, url: url) == 0)
                let failed = try await server.deck.panelState("job")
                #expect(failed.latestValidError?.kind == .jobFailed)
                #expect(failed.latestValidError?.detail == "disk full")
                #expect(try await Self.shell(#"curl -sS -o /dev/null -w '%{http_code}' "$URL-wrong" | grep -qx 404"#, url: url) == 0)
                let huge = #"head -c 100000 /dev/zero | tr '\0' x | curl -sS -o /dev/null -w '%{http_code}' --data-binary @- "$URL" | grep -qx 413"#
                #expect(try await Self.shell(huge, url: url) == 0, "a body over the transport's 64 KiB")
                #expect(try await server.deck.panelState("job").latestValidError?.kind == .jobFailed, "and it reached nothing")
            }
        }
    }
}
