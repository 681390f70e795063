import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

/// What a command starts in the background ends with the command: after a success, a failure
/// and a timeout, for panel loads, recovery options and item actions alike, even when it ignores
/// SIGTERM and SIGHUP.
@Suite("Command children")
struct CommandChildrenTests {
    /// Starts two children that ignore SIGTERM and SIGHUP and would sleep for 300 s, one holding
    /// the command's output pipes and one writing nowhere (which does not hold the result back),
    /// and appends their ids to the file `children`, one a line.
    static let leaveChildren =
        "trap '' TERM HUP; sleep 300 & echo $! >> children; sleep 300 >/dev/null 2>&1 & echo $! >> children"

    let folder: TemporaryFolder
    let runner = CommandRunner()

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The ids of the two children `leaveChildren` started.
    func children() async throws -> [pid_t] {
        try await ProcessGroup.ids(writtenTo: folder.path("children"), count: 2)
    }

    /// Runs `script` by `/bin/sh` in the test's folder.
    func run(_ script: String, timeout: Duration = .seconds(10)) async throws -> CommandResult {
        try await runner.run(.shell(script, workingDirectory: folder.path, timeout: timeout))
    }

    /// The started deck of a deck file in the test's folder whose `panels` (a YAML list) load on
    /// demand only, at once and without retries, and its events.
    func startedDeck(panels: String) async throws -> (Deck, DeckEvents) {
        let yaml = "defaults: { refresh: manual, retry: none, minimumLoading: 0ms }\npanels:\n\(panels)"
        let deck = try DeckFile.parse(yaml, file: "deck.yaml", folder: folder.path).makeDeck()
        let events = await DeckEvents(observing: deck)
        await deck.start()
        return (deck, events)
    }

    /// Expects every one of `ids` to end, well before the 300 s they would sleep.
    func expectEnded(_ ids: [pid_t], sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(await ProcessGroup.allEnd(ids), "still running: \(ids.filter(ProcessGroup.isAlive))",
                sourceLocation: sourceLocation)
    }

    // MARK: - The runner

    @Test func childrenOfACommandThatSucceededEndWithIt() async throws {
        let result = try await run("\(Self.leaveChildren); echo started")
        #expect(result.termination == .exited(0))
        #expect(result.standardOutput == "started\n")
        await expectEnded(try await children())
    }

    @Test func childrenOfACommandThatFailedEndWithIt() async throws {
        let result = try await run("\(Self.leaveChildren); exit 3")
        #expect(result.termination == .exited(3))
        await expectEnded(try await children())
    }

    @Test func childrenOfACommandThatTimedOutEndWithIt() async throws {
        let result = try await run("\(Self.leaveChildren); sleep 30", timeout: .milliseconds(300))
        #expect(result.termination == .timedOut)
        await expectEnded(try await children())
    }

    /// A descendant that made a session of its own with `setsid` is left running: it asked to
    /// outlive the command, and that is how a recovery option starts a server.
    @Test func aChildInASessionOfItsOwnIsLeftRunning() async throws {
        // The script waits, through a named pipe, until the child's session exists: a kill of
        // the group before `setsid` ran would end the child too.
        let result = try await run("""
            mkfifo ready
            setsid sh -c 'echo $$ > ready; exec sleep 300' >/dev/null 2>&1 &
            read escaped < ready
            echo $escaped
            """)
        #expect(result.termination == .exited(0))
        let escaped = try #require(pid_t(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { _ = kill(escaped, SIGKILL) }
        #expect(ProcessGroup.isAlive(escaped))
    }

    // MARK: - The deck's commands

    @Test func childrenOfAPanelsLoadEndWithTheLoad() async throws {
        let (deck, events) = try await startedDeck(panels: """
            - { id: jobs, command: { shell: "\(Self.leaveChildren); echo started" } }
            """)
        try #require(await events.panel("jobs") { $0.latestValidInfo?.text == "started" } != nil)
        await expectEnded(try await children())
        await deck.stop()
    }

    @Test func childrenOfARecoveryOptionEndWithIt() async throws {
        let (deck, events) = try await startedDeck(panels: """
            - id: jobs
              command: { run: ["false"] }
              recovery: [{ id: fix, label: Fix it, shell: "\(Self.leaveChildren)" }]
            """)
        try #require(await events.panel("jobs") { $0.latestValidError?.kind == .commandFailed } != nil)
        try await deck.recover(panel: "jobs", option: "fix")
        #expect(await events.toast("Fix it: done") != nil)
        await expectEnded(try await children())
        await deck.stop()
    }

    @Test func childrenOfAnItemActionEndWithIt() async throws {
        let (deck, events) = try await startedDeck(panels: """
            - id: files
              command: { run: [echo, alpha], output: lines }
              actions: [{ id: poke, label: Poke, shell: "\(Self.leaveChildren)" }]
            """)
        try #require(await events.panel("files") { $0.latestValidInfo?.items?.first?.id == "alpha" } != nil)
        try await deck.perform(action: "poke", item: "alpha", panel: "files")
        #expect(await events.toast("Poke alpha: done") != nil)
        await expectEnded(try await children())
        await deck.stop()
    }
}
