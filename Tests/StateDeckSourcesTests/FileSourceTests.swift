import Foundation
import Locking
import StateDeck
import TestSupport
import Testing
import Threading
@testable import StateDeckSources

@Suite("FileSource")
struct FileSourceTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func anInfoShapedJSONFileIsTakenAsInfo() async throws {
        let path = try folder.write(##"{"summary": "Build passed", "items": [{"id": "42", "title": "#42"}]}"##, to: "build.json")
        let info = try await FileSource(path: path).load()
        #expect(info == Info(summary: "Build passed", items: [Info.Item(id: "42", title: "#42")]))
    }

    @Test func aJSONObjectGivesFields() async throws {
        let path = try folder.write(#"{"branch": "main", "passed": true}"#, to: "status")
        let info = try await FileSource(path: path).load()
        #expect(info.fields == [Info.Field("branch", "main"), Info.Field("passed", "true")])
    }

    @Test func aTextFileIsText() async throws {
        let path = try folder.write("deployed v1.4\n", to: "status.txt")
        #expect(try await FileSource(path: path).load().text == "deployed v1.4")
    }

    @Test func brokenJSONInAJSONFileIsAnInvalidResponse() async throws {
        let path = try folder.write(#"{"summary": "#, to: "broken.json")
        let error = await panelError { try await FileSource(path: path).load() }
        #expect(error?.kind == .invalidResponse)
    }

    @Test func aMissingFileIsNotFound() async {
        let error = await panelError { try await FileSource(path: folder.path("missing.json")).load() }
        #expect(error?.kind == .notFound)
        #expect(error?.failureReason == "There is no file at \(folder.path("missing.json")).")
    }

    @Test func aFolderIsAnInvalidResponse() async {
        let error = await panelError { try await FileSource(path: folder.path).load() }
        #expect(error?.kind == .invalidResponse)
    }

    /// A named pipe with no writer would block `open` for ever: it is refused at once instead,
    /// as are devices, whose content is an endless stream.
    @Test(.timeLimit(.minutes(1))) func specialFilesAreRefusedWithoutBlocking() async throws {
        let fifo = folder.path("status.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = ContinuousClock.now
        let error = try #require(await panelError { try await FileSource(path: fifo).load() })
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "\(fifo) is a named pipe (FIFO), not a file.")
        let device = try #require(await panelError { try await FileSource(path: "/dev/zero").load() })
        #expect(device.failureReason == "/dev/zero is a device, not a file.")
    }

    /// A read stuck in the kernel costs only its own thread: the load ends when it is cancelled.
    @Test func aCancelledReadIsAbandoned() async throws {
        let blocking = Locked(false)
        let stuck = Task {
            try await DetachedThread.value {
                blocking.withLock { $0 = true }
                sleep(5)
            }
        }
        // Cancelled once the thread is stuck, not before it starts (which would end it unrun).
        #expect(await eventually { blocking.current })
        let started = ContinuousClock.now
        stuck.cancel()
        await #expect(throws: CancellationError.self) { try await stuck.value }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func theWatcherReportsChangesRemovalAndRecreation() async throws {
        let path = try folder.write("one", to: "watched.txt")
        var changes = FileWatcher(path: path, interval: .milliseconds(50)).changes().makeAsyncIterator()
        try folder.write("two, longer", to: "watched.txt")
        #expect(await changes.next() != nil)
        try FileManager.default.removeItem(atPath: path)
        #expect(await changes.next() != nil)
        try folder.write("three", to: "watched.txt")
        #expect(await changes.next() != nil)
    }

    @Test func theWatcherIsQuietWhileNothingChanges() async throws {
        let path = try folder.write("steady", to: "steady.txt")
        let watcher = FileWatcher(path: path, interval: .milliseconds(20))
        let changed = Task {
            for await _ in watcher.changes() { return true }
            return false
        }
        // Quiet over fifteen checks: the waiting is what is tested.
        try await Task.sleep(for: .milliseconds(300))
        changed.cancel()
        #expect(await changed.value == false)
    }
}
