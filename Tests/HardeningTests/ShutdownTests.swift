import DeckTestSupport
import Foundation
import Glibc
import TestSupport
import Testing

extension Live {
    /// SIGTERM while streams are open, an item action and a recovery command
    /// run and a load's command is mid-flight: the streams end, every child process is killed,
    /// and `statedeck` exits 0 within 2 s with nothing left running.
    @Suite("Clean ends") struct ShutdownTests {
        @Test("SIGTERM with streams open and commands running ends everything and exits 0 within 2 s", .timeLimit(.minutes(1)))
        func sigtermEndsEverything() async throws {
            // Every long command records its pid, then becomes `sleep`.
            let sleeper = "echo $$$$ >> pids; exec sleep 3600"
            let yaml = """
                title: Shutdown
                defaults: { retry: none, minimumLoading: 0ms, refresh: manual }
                panels:
                  - id: midflight
                    title: Mid-flight
                    command: { shell: "\(sleeper)", timeout: 60s }
                  - id: jobs
                    title: Jobs
                    command: { run: [printf, "job-1\\tJob 1\\n"], output: lines }
                    actions:
                      - { id: run, label: Run, shell: "\(sleeper)", timeout: 60s }
                  - id: broken
                    title: Broken
                    command: { run: ["false"] }
                    recovery:
                      - { id: restart, label: Restart, shell: "\(sleeper)", timeout: 60s }
                """
            let folder = try DeckFolder(yaml: yaml)
            defer { folder.remove() }
            let server = try StatedeckProcess(serving: folder)
            defer { server.kill() }
            let port = try #require(await server.port(), "statedeck printed no address")

            let streams = try await AsyncSSEClient.open(count: 3, port: port, path: "/events")
            defer { streams.forEach { $0.close() } }
            let origin = [("Origin", "http://127.0.0.1:\(port)")]
            let ready = await eventually(timeout: .seconds(10)) {
                let state = try? await offPool { try HTTPTestClient.request("GET", "/api/state", port: port) }
                return state.map { $0.text.contains(#""phase":"error""#) && $0.text.contains("Job 1") } ?? false
            }
            try #require(ready, "the deck did not load")
            let action = try await offPool {
                try HTTPTestClient.request("POST", "/api/panels/jobs/items/job-1/actions/run", port: port, headers: origin, body: [])
            }
            #expect(action.status == 202)
            let recovery = try await offPool {
                try HTTPTestClient.request("POST", "/api/panels/broken/recover", port: port,
                                           headers: origin + [("Content-Type", "application/json")],
                                           body: Array(#"{"option":"restart"}"#.utf8))
            }
            #expect(recovery.status == 202)
            let pidsFile = folder.path("pids")
            let pids = await Self.pids(in: pidsFile, count: 3)
            try #require(pids.count == 3, "the commands did not all start: \(pids)")
            #expect(pids.allSatisfy(ProcessTable.isRunning))
            let family = ProcessTable.descendants(of: server.pid)
            #expect(Set(pids).isSubset(of: Set(family)), "pids \(pids), descendants \(family)")

            let started = ContinuousClock.now
            server.signal(SIGTERM)
            let status = await server.exitStatus(timeout: .seconds(5))
            let elapsed = ContinuousClock.now - started
            #expect(status == 0)
            #expect(elapsed < .seconds(2), "exited after \(elapsed)")
            #expect(elapsed < .milliseconds(1_400), "exited after \(elapsed): the 1.5 s fallback exit, not a clean stop")
            for stream in streams {
                #expect(await stream.waitForEnd(timeout: .seconds(2)), "a stream stayed open")
            }
            #expect(await eventually { family.allSatisfy { !ProcessTable.isRunning($0) } },
                    "left running: \(family.filter(ProcessTable.isRunning))")
        }

        @Test("A named pipe as a file panel stalls nothing: the other panels refresh, POSTs answer, SIGTERM exits within 2 s",
              .timeLimit(.minutes(1)))
        func aNamedPipeStallsNothing() async throws {
            let folder = try DeckFolder(yaml: """
                title: FIFO
                defaults: { retry: none, minimumLoading: 0ms, refresh: 1s, timeout: 1s }
                panels:
                  - { id: fifo, file: { path: status.fifo, watch: false } }
                  - { id: tick, command: { run: [date, "+%s%N"] } }
                """)
            defer { folder.remove() }
            #expect(mkfifo(folder.path("status.fifo"), 0o600) == 0)
            let server = try StatedeckProcess(serving: folder)
            defer { server.kill() }
            let port = try #require(await server.port(), "statedeck printed no address")
            let state = { try await offPool { try HTTPTestClient.request("GET", "/api/state", port: port).text } }

            let refused = await eventually(timeout: .seconds(10)) {
                (try? await state())?.contains("is a named pipe (FIFO), not a file.") == true
            }
            #expect(refused, "the pipe's card does not say what it is")
            for _ in 0..<3 {
                let retry = try await offPool {
                    try HTTPTestClient.request("POST", "/api/panels/fifo/retry", port: port,
                                               headers: [("Origin", "http://127.0.0.1:\(port)")], body: [])
                }
                #expect(retry.status == 202)
            }
            var ticks = Set<String>()
            let refreshing = await eventually(timeout: .seconds(10)) {
                let text = (try? await state()) ?? ""
                if let range = text.range(of: #"\d{19}"#, options: .regularExpression) { ticks.insert(String(text[range])) }
                return ticks.count >= 3
            }
            #expect(refreshing, "the other panel stopped refreshing: \(ticks)")

            let started = ContinuousClock.now
            server.signal(SIGTERM)
            #expect(await server.exitStatus(timeout: .seconds(5)) == 0)
            #expect(ContinuousClock.now - started < .seconds(2))
        }

        @Test("A deck of the largest size a file may declare starts, answers and stops within 2 s", .timeLimit(.minutes(1)))
        func theLargestDeckStartsAndStops() async throws {
            let port = try LoopbackListener.closedPort()
            let panels = (0..<10_000).map { "  - { id: p\($0), tcp: { host: 127.0.0.1, port: \(port) } }" }
            let folder = try DeckFolder(yaml: """
                title: Largest
                defaults: { refresh: manual, retry: none, minimumLoading: 0ms }
                panels:
                \(panels.joined(separator: "\n"))
                """)
            defer { folder.remove() }
            let launched = ContinuousClock.now
            let server = try StatedeckProcess(serving: folder)
            defer { server.kill() }
            let serving = try #require(await server.port(), "statedeck printed no address")
            #expect(ContinuousClock.now - launched < .seconds(10), "started after \(ContinuousClock.now - launched)")
            let last = try await offPool { try HTTPTestClient.request("GET", "/api/panels/p9999", port: serving) }
            #expect(last.status == 200)

            let started = ContinuousClock.now
            server.signal(SIGTERM)
            #expect(await server.exitStatus(timeout: .seconds(5)) == 0)
            #expect(ContinuousClock.now - started < .seconds(2), "exited after \(ContinuousClock.now - started)")
        }

        /// Thousands of loads waiting on a server that never answers, loads failing and being
        /// retried at once, commands running and streams open: whenever SIGTERM comes, from the
        /// first loads to a deck in full swing, `statedeck` exits 0 within 2 s.
        @Test("SIGTERM under load exits 0 within 2 s, every time", .timeLimit(.minutes(3)))
        func sigtermUnderLoadAlwaysExits() async throws {
            // A listener that never accepts: connections wait in its backlog, then in SYN retries.
            let (silent, silentPort) = try LoopbackListener.listen(backlog: 4_096)
            defer { close(silent) }
            let closedPort = try LoopbackListener.closedPort()
            let waiting = (0..<2_000).map {
                "  - { id: wait-\($0), http: { url: \"http://127.0.0.1:\(silentPort)/\($0)\", timeout: 30s } }"
            }
            let failing = (0..<500).map {
                "  - { id: fail-\($0), retry: { attempts: 5, delay: 10ms }, http: { url: \"http://127.0.0.1:\(closedPort)/\" } }"
            }
            let commands = (0..<20).map { "  - { id: cmd-\($0), command: { run: [sleep, \"30\"], timeout: 60s } }" }
            let folder = try DeckFolder(yaml: """
                title: Under load
                defaults: { refresh: 1s, retry: none, minimumLoading: 0ms }
                panels:
                \((waiting + failing + commands).joined(separator: "\n"))
                """)
            defer { folder.remove() }
            var random = SeededRandom(seed: 22)
            for round in 0..<12 {
                let server = try StatedeckProcess(serving: folder)
                defer { server.kill() }
                let port = try #require(await server.port(), "round \(round): statedeck printed no address")
                // Two pages reading their streams, as browsers do.
                var streams: [AsyncSSEClient] = []
                for _ in 0..<2 { streams.append(try await AsyncSSEClient.open(port: port, path: "/events")) }
                let readers = streams.map { stream in
                    Task { while (try? await stream.nextEvent(timeout: .seconds(5))) != nil {} }
                }
                defer {
                    streams.forEach { $0.close() }
                    readers.forEach { $0.cancel() }
                }
                // From the first loads (0 ms) to a deck whose refreshes and retries are in full swing.
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...2_500, using: &random)))
                let started = ContinuousClock.now
                server.signal(SIGTERM)
                let status = await server.exitStatus(timeout: .seconds(10))
                let elapsed = ContinuousClock.now - started
                #expect(status == 0, "round \(round): exit status \(String(describing: status))")
                #expect(elapsed < .seconds(2), "round \(round): exited after \(elapsed)")
            }
        }

        static func pids(in path: String, count: Int) async -> [Int32] {
            var found: [Int32] = []
            _ = await eventually(timeout: .seconds(10)) {
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                found = text.split(separator: "\n").compactMap { Int32($0) }
                return found.count >= count
            }
            return found
        }
    }
}

/// A temporary folder holding `deck.yaml`, for `statedeck` to serve.
struct DeckFolder {
    let url: URL

    init(yaml: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("statedeck-deck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try yaml.write(to: url.appendingPathComponent("deck.yaml"), atomically: true, encoding: .utf8)
    }

    /// The path of `name` in the folder, where the deck's relative paths start.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The `statedeck` binary built beside this test bundle, run as a child process.
final class StatedeckProcess: Sendable {
    let process: Process
    private let output = Pipe()
    let pid: Int32

    /// `umask`, when given (octal, `"000"`), is set by a shell that then becomes `statedeck`.
    init(arguments: [String], umask: String? = nil) throws {
        process = Process()
        let binary = try StatedeckBinary.url()
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // Under AddressSanitizer, LeakSanitizer would turn `exit(0)` with work still in flight (what
        // SIGTERM does by design) into exit status 1; leaks are the in-process suites' business.
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "detect_leaks=0"
        process.environment = environment
        try process.run()
        pid = process.processIdentifier
    }

    /// Serves the deck and page of `folder` on a free port.
    convenience init(serving folder: DeckFolder) throws {
        try self.init(arguments: ["--config", folder.path("deck.yaml"), "--port", "0"])
    }

    /// The port from the `StateDeck serving on http://HOST:PORT/` line.
    func port() async -> Int? {
        let handle = output.fileHandleForReading
        return try? await offPool {
            var text = ""
            while !text.contains("\n") {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            guard let range = text.range(of: #":(\d+)/"#, options: .regularExpression) else { return nil }
            return Int(text[range].dropFirst().dropLast())
        }
    }

    func signal(_ number: Int32) {
        Glibc.kill(pid, number)
    }

    /// The exit status once the process has ended, or nil if it is still running at `timeout`.
    func exitStatus(timeout: Duration) async -> Int32? {
        let ended = await eventually(timeout: timeout) { !self.process.isRunning }
        return ended ? process.terminationStatus : nil
    }

    /// Ends the process if a failed test left it running.
    func kill() {
        if process.isRunning {
            Glibc.kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }
}
