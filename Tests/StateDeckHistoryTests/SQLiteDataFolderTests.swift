import FoundationEssentials
import Locking
import SQLite
import StateDeck
import HistoryStoreTestSupport
import StateDeckHistory
@testable import StateDeckSQLite
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The data folder is the store's own: a history file (or a companion of it, or the lock) that
/// is a link elsewhere is refused at open, and a file deleted while open is made anew.
@Suite struct SQLiteDataFolderTests {
    /// A folder beside the fixture's, for what links point to; removed after.
    private final class OtherFolder: Sendable {
        let path = FileManager.default.temporaryDirectory.path + "/statedeck-elsewhere-\(UInt64.random(in: 0...UInt64.max))"

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        func contents() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        }
    }

    private static func makeFolder(_ fixture: StoreFixture) throws {
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
    }

    private static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    // MARK: Links

    /// Linked to an empty file or to none, the file or a companion is refused naming the link and
    /// its target, and nothing is made where it points.
    @Test(arguments: ["", "-wal", "-shm", "-journal"], [true, false])
    func aSymbolicLinkIsRefusedNamingItAndItsTarget(suffix: String, targetExists: Bool) throws {
        let fixture = StoreFixture()
        let elsewhere = try OtherFolder()
        try Self.makeFolder(fixture)
        let target = elsewhere.path + "/shared.sqlite3" + suffix
        if targetExists { try Data().write(to: URL(fileURLWithPath: target)) }
        let link = fixture.path + suffix
        #expect(symlink(target, link) == 0)
        let error = try #require(throws: HistoryOpenError.self) { try fixture.open() }
        #expect(error == .symbolicLink(path: link, target: target))
        #expect(error.description.contains(link) && error.description.contains(target), "\(error)")
        #expect(try elsewhere.contents() == (targetExists ? ["shared.sqlite3" + suffix] : []))
        if targetExists {
            #expect(try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int == 0, "the target was written")
        }
        #expect(try Self.files(in: fixture.folder) == ["history.sqlite3" + suffix, "lock"].sorted())
    }

    @Test func aRelativeLinksTargetIsNamedFromTheFolder() throws {
        let fixture = StoreFixture()
        try Self.makeFolder(fixture)
        #expect(symlink("../shared.sqlite3", fixture.path) == 0)
        let error = try #require(throws: HistoryOpenError.self) { try fixture.open() }
        #expect(error == .symbolicLink(path: fixture.path, target: fixture.folder + "/../shared.sqlite3"))
    }

    @Test func aLockFileThatIsALinkIsRefusedNamingIt() throws {
        let fixture = StoreFixture()
        let elsewhere = try OtherFolder()
        try Self.makeFolder(fixture)
        #expect(symlink(elsewhere.path + "/lock", fixture.folder + "/lock") == 0)
        let error = try #require(throws: HistoryOpenError.self) { try fixture.open() }
        #expect(error == .symbolicLink(path: fixture.folder + "/lock", target: elsewhere.path + "/lock"))
        #expect(try elsewhere.contents().isEmpty)
    }

    /// Two folders holding one file (one inode): each is refused, naming its file.
    @Test func aFileWithASecondHardLinkIsRefusedInEitherFolder() throws {
        let fixture = StoreFixture()
        do {
            let store = try fixture.open()
            store.record(fixture.change("p", .loaded(Info(summary: "kept"))))
            store.close()
        }
        let before = try fixture.fileBytes()
        let second = StoreFixture()
        try Self.makeFolder(second)
        #expect(link(fixture.path, second.path) == 0)
        for folder in [fixture, second] {
            let error = try #require(throws: HistoryOpenError.self) { try folder.open() }
            #expect(error == .hardLinks(path: folder.path, count: 2))
            #expect(error.description.contains(folder.path))
        }
        #expect(try fixture.fileBytes() == before)
        #expect(unlink(second.path) == 0)
        let reopened = try fixture.open()
        #expect(try reopened.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["kept"])
        reopened.close()
    }

    /// SQLite is told not to follow links, which it applies to every part of a path: a folder
    /// reached through a link is still a folder of its own.
    @Test func aFolderReachedThroughALinkIsUsed() throws {
        let fixture = StoreFixture()
        try Self.makeFolder(fixture)
        let elsewhere = try OtherFolder()
        let linked = elsewhere.path + "/linked"
        #expect(symlink(fixture.folder, linked) == 0)
        var configuration = SQLiteHistoryStore.Configuration()
        configuration.startsWriter = false
        configuration.now = { fixture.now }
        let store = try SQLiteHistoryStore(folder: linked, configuration: configuration)
        store.record(fixture.change("p", .loaded(Info(summary: "through a link"))))
        store.close()
        let database = try Database(path: fixture.path, mode: .readOnly)
        #expect(try database.integer("SELECT count(*) FROM changes") == 1)
    }

    // MARK: Messages

    @Test func aLockFileThatCannotBeMadeIsNamedAsTheLockFile() throws {
        let fixture = StoreFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder + "/lock", withIntermediateDirectories: true)
        let error = try #require(throws: HistoryOpenError.self) { try fixture.open() }
        #expect(error == .cannotCreateLock(path: fixture.folder + "/lock", reason: "Is a directory"))
        #expect(error.description.hasPrefix("cannot create the lock file \(fixture.folder)/lock: Is a directory."))
    }

    @Test(.enabled(if: geteuid() != 0, "root writes any folder"))
    func anUnwritableFolderNamesTheLockFile() throws {
        let fixture = StoreFixture()
        try Self.makeFolder(fixture)
        #expect(chmod(fixture.folder, 0o500) == 0)
        defer { chmod(fixture.folder, 0o700) }
        let error = try #require(throws: HistoryOpenError.self) { try fixture.open() }
        #expect(error.description.hasPrefix("cannot create the lock file \(fixture.folder)/lock: Permission denied."))
    }

    @Test func aFolderThatCannotBeMadeIsNamedAsTheFolder() throws {
        let fixture = StoreFixture()
        try Self.makeFolder(fixture)
        try Data().write(to: URL(fileURLWithPath: fixture.folder + "/file"))
        var configuration = SQLiteHistoryStore.Configuration()
        configuration.startsWriter = false
        let folder = fixture.folder + "/file/history"
        let error = try #require(throws: HistoryOpenError.self) {
            try SQLiteHistoryStore(folder: folder, configuration: configuration)
        }
        #expect(error.description.hasPrefix("cannot create the history folder \(folder): Not a directory."))
    }

    // MARK: Deleted while open

    /// Deleted with its companions, the file is made anew at the next save: the panels' latest
    /// rows and the ledger go into it with the changes made since, the notice stays however many
    /// saves succeed, and a reopened store has all of it.
    @Test func aFileDeletedWhileOpenIsMadeAnewHoldingWhatCameAfter() throws {
        let fixture = StoreFixture()
        do {
            let store = try fixture.open()
            let heard = Locked<[PanelError?]>([])
            store.observeTrouble { error in heard.withLock { $0.append(error) } }
            store.record(fixture.change("p", .loaded(Info(summary: "before"))))
            store.record(fixture.change("quiet", .loaded(Info(summary: "unchanged since"))))
            store.keep(LedgerSamples.toldOutage(at: fixture.now), for: "api#0", delivering: nil)
            store.flush()
            for name in try Self.files(in: fixture.folder) where name.hasPrefix(SQLiteHistoryStore.fileName) {
                #expect(unlink(fixture.folder + "/" + name) == 0)
            }
            fixture.advance(by: .seconds(60))
            let deletedAt = fixture.now
            store.record(fixture.change("p", .loaded(Info(summary: "after"))))
            store.flush()

            let notice = try #require(store.trouble)
            #expect(notice.title == "History started anew")
            #expect(notice.message == "history.sqlite3 was deleted while serving (at \(SQLiteHistoryWriting.clockTime(deletedAt))); "
                + "StateDeck started a new one and saves there; the changes and tallies it held before are gone.")
            #expect(notice.detail == fixture.path)
            fixture.advance(by: .seconds(60))
            store.record(fixture.change("p", .loaded(Info(summary: "later"))))
            store.flush()
            #expect(store.trouble == notice, "a save that works keeps the notice")
            #expect(heard.current == [notice])
            #expect(try store.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["later", "after"])
            store.close()
        }
        let reopened = try fixture.open()
        #expect(reopened.trouble == nil, "the notice is this run's")
        #expect(try reopened.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["later", "after"])
        #expect(Set(reopened.memories(of: ["p", "quiet"]).keys) == ["p", "quiet"])
        #expect(reopened.outages().keys.sorted() == ["api#0"], "the ledger was saved again")
        reopened.close()
        let database = try Database(path: fixture.path, mode: .readOnly)
        let latest = try database.prepare("SELECT p.name, l.info FROM latest l JOIN panels p ON p.id = l.panel ORDER BY p.name")
        var rows: [String: String] = [:]
        while try latest.step() { rows[latest.text(0) ?? ""] = latest.text(1) }
        #expect(rows.keys.sorted() == ["p", "quiet"])
        #expect(rows["p"]?.contains("later") == true)
        #expect(rows["quiet"]?.contains("unchanged since") == true, "its latest row was saved again")
    }

    /// Deleted alone, the file leaves its log and shared memory behind; the new file is not read
    /// with them.
    @Test func aFileDeletedWithoutItsLogStartsClean() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        store.record(fixture.change("p", .loaded(Info(summary: "before"))))
        store.flush()
        #expect(FileManager.default.fileExists(atPath: fixture.path + "-wal"))
        #expect(unlink(fixture.path) == 0)
        store.record(fixture.change("p", .loaded(Info(summary: "after"))))
        store.flush()
        #expect(store.trouble?.title == "History started anew")
        store.close()
        let database = try Database(path: fixture.path, mode: .readOnly)
        #expect(try database.prepare("PRAGMA integrity_check").step())
        #expect(try database.integer("SELECT count(*) FROM changes") == 1)
    }

    /// While no new file can be made, the changes wait in memory and the notice says so; once one
    /// can, they are saved into it.
    @Test func aFileThatCannotBeMadeAgainKeepsTheChangesWaiting() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        store.flush()
        #expect(unlink(fixture.path) == 0)
        #expect(unlink(fixture.path + "-wal") == 0)
        // SQLite cannot make the new file's log where a folder is.
        try FileManager.default.createDirectory(atPath: fixture.path + "-wal", withIntermediateDirectories: false)
        let deletedAt = fixture.now
        store.record(fixture.change("p", .loaded(Info(summary: "waiting"))))
        store.flush()
        fixture.advance(by: .seconds(120))
        store.flush()
        let trouble = try #require(store.trouble)
        #expect(trouble.title == "Can't save history")
        #expect(trouble.message == "History is not being saved: history.sqlite3 was deleted while serving (at "
            + "\(SQLiteHistoryWriting.clockTime(deletedAt))) and a new one cannot be made in \(fixture.folder). 1 changes wait in "
            + "memory; saving resumes by itself once it can be.")
        #expect(trouble.detail?.contains("history file \(fixture.path): disk I/O error") == true, "\(trouble.detail ?? "")")
        #expect(!FileManager.default.fileExists(atPath: fixture.path), "a half-made file was left")
        #expect(try store.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["waiting"])

        try FileManager.default.removeItem(atPath: fixture.path + "-wal")
        store.flush()
        #expect(store.trouble?.title == "History started anew")
        #expect(store.trouble?.message.contains("(at \(SQLiteHistoryWriting.clockTime(deletedAt)))") == true, "when it was found")
        store.close()
        let database = try Database(path: fixture.path, mode: .readOnly)
        #expect(try database.integer("SELECT count(*) FROM changes") == 1)
    }

    /// Another file moved into the file's place is left alone, and nothing is saved, until it is
    /// moved away.
    @Test func aFileReplacedWhileOpenIsLeftAlone() throws {
        let fixture = StoreFixture()
        let store = try fixture.open()
        store.flush()
        let foreign = Array("name,value\n1,2\n".utf8)
        try Data(foreign).write(to: URL(fileURLWithPath: fixture.path + ".new"))
        #expect(rename(fixture.path + ".new", fixture.path) == 0)
        store.record(fixture.change("p", .loaded(Info(summary: "waiting"))))
        store.flush()
        let trouble = try #require(store.trouble)
        #expect(trouble.title == "Can't save history")
        #expect(trouble.message.contains("history.sqlite3 was replaced while serving"), "\(trouble.message)")
        #expect(trouble.message.contains("1 changes wait in memory"))
        #expect(try fixture.fileBytes() == foreign)

        #expect(unlink(fixture.path) == 0)
        store.flush()
        #expect(store.trouble?.title == "History started anew")
        store.close()
        let database = try Database(path: fixture.path, mode: .readOnly)
        #expect(try database.integer("SELECT count(*) FROM changes") == 1)
    }

    /// Deleted with its folder, the folder and its lock are made again too, so that a second
    /// store still cannot use it.
    @Test func aFolderDeletedWhileOpenIsMadeAnewAndLockedAgain() throws {
        let fixture = StoreFixture()
        do {
            let store = try fixture.open()
            store.flush()
            try FileManager.default.removeItem(atPath: fixture.folder)
            store.record(fixture.change("p", .loaded(Info(summary: "after"))))
            store.flush()
            #expect(store.trouble?.title == "History started anew")
            #expect(throws: HistoryOpenError.inUse(folder: fixture.folder, owner: "pid \(getpid())")) {
                try fixture.open()
            }
            store.close()
        }
        let reopened = try fixture.open()
        #expect(try reopened.changes(of: "p", HistoryQuery()).entries.map(\.summary) == ["after"])
        reopened.close()
    }
}
