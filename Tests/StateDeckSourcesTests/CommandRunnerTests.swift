import Foundation
import Testing
@testable import StateDeckSources

@Suite("CommandRunner")
struct CommandRunnerTests {
    let runner = CommandRunner()

    @Test func exitStatusesAreReported() async throws {
        #expect(try await runner.run(CommandSpec(arguments: ["true"])).termination == .exited(0))
        #expect(try await runner.run(CommandSpec(arguments: ["false"])).termination == .exited(1))
    }

    @Test func outputAndErrorAreCapturedSeparately() async throws {
        let result = try await runner.run(.shell("echo out; echo err >&2; exit 3"))
        #expect(result.termination == .exited(3))
        #expect(result.standardOutput == "out\n")
        #expect(result.standardError == "err\n")
    }

    @Test func runsWithoutAShellUnlessAsked() async throws {
        let result = try await runner.run(CommandSpec(arguments: ["echo", "$HOME", "a;b"]))
        #expect(result.standardOutput == "$HOME a;b\n")
    }

    @Test func usesTheWorkingDirectoryAndEnvironment() async throws {
        let folder = try TemporaryFolder()
        // Run through sh rather than executed itself: a script written a moment ago may still be
        // open for writing in a child another test is forking, and exec then fails with ETXTBSY.
        try folder.write("echo \"$(pwd) $GREETING\"\n", to: "hello.sh")
        let command = CommandSpec(arguments: ["/bin/sh", "hello.sh"], workingDirectory: folder.path,
                                  environment: ["GREETING": "hi"])
        let result = try await runner.run(command)
        #expect(result.standardOutput == "\(folder.url.resolvingSymlinksInPath().path) hi\n", "\(result)")
    }

    @Test func aMissingProgramIsALaunchFailure() async throws {
        let result = try await runner.run(CommandSpec(arguments: ["no-such-program-here"]))
        #expect(result.termination == .launchFailed(reason: "command not found: no-such-program-here", code: ENOENT))
    }

    @Test func aTimeoutKillsTheWholeProcessGroup() async throws {
        let folder = try TemporaryFolder()
        let pidFile = folder.path("pid")
        let started = ContinuousClock.now
        let command = CommandSpec.shell("echo $$ > \(pidFile); sleep 30 & sleep 30", timeout: .milliseconds(300))
        let result = try await runner.run(command)
        #expect(result.termination == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(2))
        let group = try await ProcessGroup.id(writtenTo: pidFile)
        #expect(await ProcessGroup.ends(group))
    }

    @Test func cancellingKillsTheWholeProcessGroup() async throws {
        let folder = try TemporaryFolder()
        let pidFile = folder.path("pid")
        let runner = runner
        let task = Task { try await runner.run(.shell("echo $$ > \(pidFile); sleep 30 & sleep 30")) }
        let group = try await ProcessGroup.id(writtenTo: pidFile)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await ProcessGroup.ends(group))
    }

    @Test func floodingOutputIsBounded() async throws {
        let runner = CommandRunner(outputLimit: 1000, errorLimit: 100)
        let result = try await runner.run(.shell("seq 1 200000; seq 1 200000 >&2"))
        #expect(result.termination == .exited(0))
        #expect(result.outputTruncated)
        #expect(result.standardOutput.utf8.count == 1000)
        #expect(result.standardOutput.hasPrefix("1\n2\n3\n"))
        #expect(result.standardError.utf8.count == 100)
        #expect(result.standardError.hasSuffix("199999\n200000\n"))
    }

    @Test func anEndlessFloodIsBoundedAndKilled() async throws {
        let runner = CommandRunner(outputLimit: 4096)
        let result = try await runner.run(CommandSpec(arguments: ["yes"], timeout: .milliseconds(300)))
        #expect(result.termination == .timedOut)
        #expect(result.outputTruncated)
        #expect(result.standardOutput.utf8.count == 4096)
    }

    @Test func aBackgroundChildHoldingThePipesDoesNotHoldTheResult() async throws {
        let started = ContinuousClock.now
        let result = try await runner.run(.shell("echo $$; sleep 3 & echo started"))
        #expect(result.termination == .exited(0))
        #expect(ContinuousClock.now - started < .seconds(2))
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.last == "started")
        if let group = lines.first.flatMap({ pid_t($0) }) { killpg(group, SIGKILL) }
    }
}
