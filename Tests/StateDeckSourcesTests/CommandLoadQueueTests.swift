import Foundation
import Locking
import TestSupport
import Testing
@testable import StateDeck
@testable import StateDeckSources

@Suite("CommandLoadQueue")
struct CommandLoadQueueTests {
    /// Each command notes itself in `folder` while it runs and prints how many run with it.
    static func countingSource(_ folder: TemporaryFolder, name: String, queue: CommandLoadQueue) -> CommandSource {
        let script = #"touch "$RUNS/$NAME"; ls "$RUNS" | wc -l; sleep 0.3; rm "$RUNS/$NAME""#
        return CommandSource(command: .shell(script, environment: ["RUNS": folder.path, "NAME": name]), output: .text,
                             queue: queue)
    }

    @Test func fiveLoadsWithALimitOfTwoRunTwoAtATimeTheOthersQueuedAndAllFinish() async throws {
        let folder = try TemporaryFolder()
        let queue = CommandLoadQueue(limit: 2)
        let ids = (1...5).map { "p\($0)" }
        let deck = Deck("Commands", panels: ids.map { id in
            let source = Self.countingSource(folder, name: id, queue: queue)
            return Panel(id, title: id) { try await source.load() }.timeout(.seconds(5)).retry(.none)
        })
        let events = await DeckEvents(observing: deck)
        await deck.start()
        defer { Task { await deck.stop() } }
        for id in ids {
            let loaded = try #require(await events.panel(id) { $0.phase == .loaded })
            let runningAtOnce = try #require(Int(loaded.latestValidInfo?.text ?? ""))
            #expect(runningAtOnce <= 2, "\(id) ran with \(runningAtOnce - 1) others")
            #expect(!loaded.queued)
        }
        let queued = Set(events.panelStates.filter(\.queued).map(\.id))
        #expect(queued.count == 3, "the three beyond the limit waited: \(queued)")
        #expect(events.panelStates.filter(\.queued).allSatisfy { $0.isLoading })
    }

    @Test func aCancelledLoadLeavesTheLineAtOnceAndTheNextStillRuns() async throws {
        let folder = try TemporaryFolder()
        let queue = CommandLoadQueue(limit: 1)
        let holdingRuns = folder.path("holding")
        let holding = Task {
            try await CommandSource(command: .shell(#"touch "$RUNS"; sleep 10"#, environment: ["RUNS": holdingRuns]),
                                    queue: queue).load()
        }
        try #require(await eventually { FileManager.default.fileExists(atPath: holdingRuns) },
                     "the first command never ran: the line has no one ahead")
        // The deck's ear for a load waiting its turn, here the test's: both loads below are in line.
        let inLine = Locked(0)
        let reporter = LoadProgress.Reporter { waiting in
            if waiting { inLine.withLock { $0 += 1 } }
        }
        func queued(_ script: String) -> Task<Info, any Error> {
            Task {
                try await LoadProgress.$reporter.withValue(reporter) {
                    try await CommandSource(command: .shell(script), queue: queue).load()
                }
            }
        }
        let cancelled = queued("echo never")
        let next = queued("echo next")
        try #require(await eventually { inLine.current == 2 }, "\(inLine.current) of the two loads waited in line")
        let started = ContinuousClock.now
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(ContinuousClock.now - started < .seconds(1), "the command ahead runs for 10 s")
        holding.cancel()
        _ = try? await holding.value
        #expect(try await next.value.text == "next")
    }
}
