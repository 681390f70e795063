import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

@Suite("CommandSource")
struct CommandSourceTests {
    func load(_ script: String, output: OutputFormat = .auto, timeout: Duration = .seconds(5)) async throws -> Info {
        try await CommandSource(command: .shell(script, timeout: timeout), output: output).load()
    }

    @Test func silentSuccessSaysItExitedAndNotHowLong() async throws {
        let info = try await CommandSource(command: CommandSpec(arguments: ["true"])).load()
        #expect(info.summary == "Exited with status 0")
        #expect(info.text == nil)
    }

    @Test func textOutputIsTheText() async throws {
        #expect(try await load("echo '  hello'; echo world").text == "hello\nworld")
    }

    @Test func aJSONObjectGivesSortedFields() async throws {
        let info = try await load(#"echo '{"queued": 3, "failed": 0, "state": "idle"}'"#)
        #expect(info.fields == [Info.Field("failed", "0"), Info.Field("queued", "3"), Info.Field("state", "idle")])
    }

    @Test func anInfoShapedObjectIsTakenAsInfo() async throws {
        let info = try await load(#"echo '{"summary": "2 jobs", "fields": [{"label": "Next", "value": "backup"}]}'"#)
        #expect(info.summary == "2 jobs")
        #expect(info.fields == [Info.Field("Next", "backup")])
    }

    @Test func aJSONArrayGivesItems() async throws {
        let info = try await load(#"echo '[{"id": "a1", "title": "Backup", "status": "running"}, {"name": "web"}, "plain"]'"#)
        #expect(info.items == [
            Info.Item(id: "a1", title: "Backup", subtitle: "running"),
            Info.Item(id: "web", title: "web"),
            Info.Item(id: "plain", title: "plain"),
        ])
    }

    @Test func linesGiveItemsWithTabSeparatedColumns() async throws {
        let info = try await load(#"printf 'web\tWeb server\tUp 2 hours\ndb\n\nweb\tagain\n'"#, output: .lines)
        #expect(info.items == [Info.Item(id: "web", title: "Web server", subtitle: "Up 2 hours"),
                               Info.Item(id: "db", title: "db")])
    }

    @Test func jsonOutputThatIsNotJSONIsAnInvalidResponse() async {
        let error = await panelError { try await load("echo not json", output: .json) }
        #expect(error?.kind == .invalidResponse)
    }

    @Test func aNonZeroExitIsACommandFailureWithTheEndOfStandardError() async {
        let error = await panelError { try await load("echo first >&2; echo oops >&2; exit 3") }
        #expect(error?.kind == .commandFailed)
        #expect(error?.failureReason == "`echo first >&2; echo oops >&2; exit 3` exited with status 3.")
        #expect(error?.detail == "first\noops")
    }

    @Test func aFullDiskIsOutOfSpace() async {
        let error = await panelError { try await load("echo 'write /data: No space left on device' >&2; exit 1") }
        #expect(error?.kind == .outOfSpace)
    }

    @Test func aMissingProgramIsACommandFailure() async {
        let error = await panelError { try await CommandSource(command: CommandSpec(arguments: ["no-such-tool"])).load() }
        #expect(error?.kind == .commandFailed)
        #expect(error?.failureReason == "command not found: no-such-tool")
    }

    @Test func aTimeoutIsATimeout() async {
        let error = await panelError { try await load("sleep 30", timeout: .milliseconds(300)) }
        #expect(error?.kind == .timeout)
        #expect(error?.failureReason == "`sleep 30` ran longer than 300 ms and was killed.")
    }
}
