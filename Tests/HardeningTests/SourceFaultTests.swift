import DeckTestSupport
import Foundation
import Glibc
import StateDeck
import StateDeckSources
import TestSupport
import Testing

extension Live {
    /// Faults in sources end as error cards; the server and every other panel
    /// go on.
    @Suite("Source faults") struct SourceFaultTests {
        struct Boom: Error {}

        @Test("Loaders that hang, ignore cancellation, throw, return huge info or flood output end as cards; the rest goes on", .timeLimit(.minutes(1)))
        func faultyLoadersAreContained() async throws {
            let stuck = Latch()
            defer { stuck.open() }
            let steadyLoads = Counter()
            let deck = Deck("Faults") {
                Panel("hang", title: "Hangs") {
                    try await Task.sleep(for: .seconds(3600))
                    return Info(summary: "never")
                }
                .timeout(.milliseconds(300)).retry(.none).minimumLoadingTime(.zero)
                Panel("stuck", title: "Ignores cancellation") {
                    await stuck.wait()
                    return Info(summary: "too late")
                }
                .timeout(.milliseconds(300)).retry(.none).minimumLoadingTime(.zero)
                Panel("throws", title: "Throws") { throw Boom() }
                    .retry(.none).minimumLoadingTime(.zero)
                Panel("huge", title: "Huge") { Self.hugeInfo() }
                    .retry(.none).minimumLoadingTime(.zero)
                Panel("crash", title: "Crashes") {
                    try await CommandSource(command: .shell("kill -SEGV $$", timeout: .seconds(5))).load()
                }
                .retry(.none).minimumLoadingTime(.zero)
                Panel("yes", title: "Endless output") {
                    try await CommandSource(command: CommandSpec(arguments: ["yes"], timeout: .seconds(1))).load()
                }
                .timeout(.seconds(5)).retry(.none).minimumLoadingTime(.zero)
                Panel("flood", title: "200 MB of output") {
                    try await CommandSource(command: .shell("head -c 200000000 /dev/zero | tr '\\000' x", timeout: .seconds(20))).load()
                }
                .timeout(.seconds(25)).retry(.none).minimumLoadingTime(.zero)
                Panel("steady", title: "Steady") {
                    steadyLoads.increment()
                    return Info(summary: "fine")
                }
                .refresh(every: .milliseconds(100)).retry(.none).minimumLoadingTime(.zero)
            }
            try await LiveDeckServer.run(deck, files: Fixtures.pageFiles) { harness in
                let events = try await harness.events()
                defer { events.close() }
                // While the faults play out, the API answers promptly and the steady panel loads.
                var slowest = Duration.zero
                let settled = await eventually(timeout: .seconds(30)) {
                    let started = ContinuousClock.now
                    let state = try? await harness.get("/api/state")
                    slowest = max(slowest, ContinuousClock.now - started)
                    guard state?.status == 200 else { return false }
                    let phases = await harness.deck.snapshot().panels.map(\.phase)
                    return !phases.contains(.loading) && !phases.contains(.initial)
                }
                let phases = await harness.deck.snapshot().panels.map { "\($0.id): \($0.phase)" }
                #expect(settled, "\(phases)")
                #expect(slowest < .seconds(1), "GET /api/state took \(slowest) while sources failed")

                #expect(try await harness.deck.panelState("hang").latestValidError?.kind == .timeout)
                #expect(try await harness.deck.panelState("stuck").latestValidError?.kind == .timeout)
                #expect(try await harness.deck.panelState("throws").latestValidError?.kind == .unknown)
                #expect(try await harness.deck.panelState("crash").latestValidError?.kind == .commandFailed)
                #expect(try await harness.deck.panelState("yes").latestValidError?.kind == .timeout)
                let flood = try await harness.deck.panelState("flood")
                #expect(flood.phase == .loaded || flood.phase == .error)
                let huge = try await harness.deck.panelState("huge")
                #expect(huge.latestValidError?.kind == .invalidResponse)

                // Whatever it holds, the huge panel is served as valid JSON.
                let document = try await harness.get("/api/panels/huge")
                #expect(document.status == 200)
                #expect((try? JSONSerialization.jsonObject(with: Data(document.body))) != nil)
                let loadsThen = steadyLoads.count
                #expect(await eventually { steadyLoads.count >= loadsThen + 5 }, "the steady panel stopped loading")
                // It refreshes every 100 ms, so it may be loading right now; what it shows is its info.
                let steady = try await harness.deck.panelState("steady")
                #expect(steady.latestValidInfo?.summary == "fine" && steady.latestValidError == nil)

                // Nothing of the commands is left running.
                #expect(await eventually { ProcessTable.children(of: getpid(), named: "yes").isEmpty })
                #expect(await eventually { ProcessTable.children(of: getpid(), named: "head").isEmpty })
            }
        }

        @Test("A command printing 200 MB keeps only the start of it, and memory stays flat")
        func floodIsNotKept() async throws {
            let before = ProcessTable.residentBytes()
            let source = CommandSource(command: .shell("head -c 200000000 /dev/zero | tr '\\000' x", timeout: .seconds(20)))
            let info = try await source.load()
            let grown = ProcessTable.residentBytes() - before
            #expect((info.text?.utf8.count ?? 0) <= 64 * 1024)
            if !Sanitizer.address {
                #expect(grown < 64_000_000, "resident memory grew by \(grown / 1_000_000) MB")
            }
            let endless = CommandSource(command: CommandSpec(arguments: ["yes"], timeout: .milliseconds(500)))
            await #expect(throws: PanelError.self) { try await endless.load() }
            #expect(await eventually { ProcessTable.children(of: getpid(), named: "yes").isEmpty })
        }

        @Test("Hundreds of concurrent retries run the loader once")
        func retryStormIsCoalesced() async throws {
            let loads = Counter()
            let hold = Latch()
            defer { hold.open() }
            let deck = Deck("Storm") {
                Panel("slow", title: "Slow") {
                    // The first load answers at once; the next one waits for the test.
                    if loads.increment() > 1 { await hold.wait() }
                    return Info(summary: "loaded \(loads.count)")
                }
                .retry(.none).minimumLoadingTime(.zero).timeout(.seconds(30))
            }
            try await LiveDeckServer.run(deck, files: Fixtures.pageFiles) { harness in
                #expect(await eventually { (try? await harness.deck.panelState("slow").phase) == .loaded })
                let port = harness.port
                let answers = await concurrently(300, threads: 64) { _ in
                    (try? HTTPTestClient.request(
                        "POST", "/api/panels/slow/retry", port: port, headers: [("Origin", "http://127.0.0.1:\(port)")],
                        body: [])).map { $0 }
                }
                #expect(answers.allSatisfy { $0?.status == 202 }, "\(Set(answers.map { $0?.status }))")
                let started = answers.filter { $0?.text == #"{"accepted":true,"coalesced":false}"# }.count
                let joined = answers.filter { $0?.text == #"{"accepted":true,"coalesced":true}"# }.count
                #expect(started == 1)
                #expect(joined == 299)
                #expect(loads.count == 2)
                hold.open()
                #expect(await eventually { (try? await harness.deck.panelState("slow").latestValidInfo?.summary) == "loaded 2" })
                #expect(loads.count == 2)
            }
        }

        @Test("Back-to-back retries run the loader at most once per minimum loading time")
        func retriesAreRateLimitedByTheMinimumLoadingTime() async throws {
            let loads = Counter()
            let deck = Deck("Rate") {
                Panel("a", title: "A") {
                    loads.increment()
                    return Info(summary: "ok")
                }
                .retry(.none).minimumLoadingTime(.milliseconds(500))
            }
            try await LiveDeckServer.run(deck, files: Fixtures.pageFiles) { harness in
                #expect(await eventually { (try? await harness.deck.panelState("a").phase) == .loaded })
                let before = loads.count
                let started = ContinuousClock.now
                var retries = 0
                while ContinuousClock.now - started < .seconds(2) {
                    let answer = try await harness.post("/api/panels/a/retry")
                    #expect(answer.status == 202)
                    retries += 1
                }
                let ran = loads.count - before
                #expect(retries > 50)
                #expect(ran <= 5, "\(retries) retries in 2 s ran the loader \(ran) times")
            }
        }

        @Test("A recovery command that hangs is killed at its timeout and reported", .timeLimit(.minutes(1)))
        func hangingRecoveryIsKilled() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statedeck-recovery-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let pidFile = folder.appendingPathComponent("recovery.pid").path
            let yaml = """
                title: Recovery
                panels:
                  - id: broken
                    title: Broken
                    command: { run: ["false"], timeout: 2s }
                    retry: none
                    refresh: manual
                    minimumLoading: 0ms
                    recovery:
                      - id: restart
                        label: Restart
                        shell: echo $$$$ > recovery.pid; exec sleep 3600
                        timeout: 500ms
                """
            let path = folder.appendingPathComponent("deck.yaml").path
            try yaml.write(toFile: path, atomically: true, encoding: .utf8)
            let deck = try DeckFile.load(path: path).makeDeck()
            try await LiveDeckServer.run(deck, files: Fixtures.pageFiles) { harness in
                #expect(await eventually { (try? await harness.deck.panelState("broken").latestValidError?.kind) == .commandFailed })
                let started = ContinuousClock.now
                let answer = try await harness.post("/api/panels/broken/recover", json: #"{"option":"restart"}"#)
                #expect(answer.status == 202, "\(answer.text)")
                let pid = try #require(await eventuallyValue { ProcessTable.pid(in: pidFile) })
                #expect(ProcessTable.isRunning(pid))
                // The failure toast comes once the command is killed at 500 ms.
                let toast = await eventuallyValue {
                    await harness.deck.snapshot().toast.flatMap { $0.message.hasPrefix("Restart failed") ? $0 : nil }
                }
                let elapsed = ContinuousClock.now - started
                #expect(toast != nil, "no failure toast")
                #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(3), "reported after \(elapsed)")
                #expect(await eventually { !ProcessTable.isRunning(pid) }, "the recovery command \(pid) still runs")
                #expect(try await harness.get("/api/state").status == 200)
                #expect(try await harness.deck.panelState("broken").latestValidError != nil)
            }
        }

        /// Info far past anything a page shows, full of text that breaks naive encoders.
        static func hugeInfo() -> Info {
            let nasty = "</script><script>alert(1)</script>\u{0}\u{1}\u{7F}\u{2028}\u{2029}\u{202E}\"\\\r\n\t😀é"
            let items = (0..<20_000).map { Info.Item(id: "item-\($0)", title: "\(nasty) \($0)", subtitle: nasty) }
            let fields = (0..<1000).map { Info.Field("\(nasty) \($0)", nasty) }
            return Info(summary: nasty, fields: fields, items: items, text: String(repeating: nasty, count: 20_000))
        }
    }
}
