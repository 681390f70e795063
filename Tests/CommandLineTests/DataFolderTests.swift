import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--data DIR` keeps the history in files of the folder's own: a history file that is a link
/// to another stops the start with status 2, and so does a folder whose lock cannot be made,
/// each message naming the file.
@Suite struct DataFolderTests {
    /// A temporary folder holding a data folder `data/` and a folder `elsewhere/` for links to
    /// point into; removed after.
    private final class Folder: Sendable {
        let path = FileManager.default.temporaryDirectory.path + "/statedeck-data-\(UUID().uuidString)"

        init() throws {
            for folder in ["data", "elsewhere"] {
                try FileManager.default.createDirectory(atPath: path + "/" + folder, withIntermediateDirectories: true)
            }
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        var data: String { path + "/data" }
        var history: String { data + "/history.sqlite3" }

        func contents(of folder: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: path + "/" + folder).sorted()
        }

        /// Runs `statedeck` with its data in `data/`.
        func start() async throws -> StatedeckBinary.Run {
            try await StatedeckBinary.run(["--data", data, "--port", "0"])
        }
    }

    /// Linked to an empty file (which SQLite would have made a database) or to none (whose log
    /// SQLite would have made where it points).
    @Test(arguments: [true, false])
    func aHistoryFileThatIsALinkIsStatus2NamingBothAndNothingIsMadeWhereItPoints(targetExists: Bool) async throws {
        let folder = try Folder()
        let target = folder.path + "/elsewhere/shared.sqlite3"
        if targetExists { try Data().write(to: URL(fileURLWithPath: target)) }
        #expect(symlink(target, folder.history) == 0)
        let run = try await folder.start()
        #expect(run.status == 2)
        #expect(run.standardError.contains("\(folder.history) is a symbolic link to \(target)."), "\(run.standardError)")
        #expect(!run.standardOutput.contains("serving"))
        #expect(try folder.contents(of: "elsewhere") == (targetExists ? ["shared.sqlite3"] : []))
        if targetExists {
            #expect(try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int == 0)
        }
    }

    @Test func aHistoryFileWithASecondHardLinkIsStatus2NamingIt() async throws {
        let folder = try Folder()
        let other = folder.path + "/elsewhere/history.sqlite3"
        try Data().write(to: URL(fileURLWithPath: other))
        #expect(link(other, folder.history) == 0)
        let run = try await folder.start()
        #expect(run.status == 2)
        #expect(run.standardError.contains("\(folder.history) has 2 hard links"), "\(run.standardError)")
    }

    @Test func aLockFileThatCannotBeMadeIsStatus2NamingTheLockFile() async throws {
        let folder = try Folder()
        try FileManager.default.createDirectory(atPath: folder.data + "/lock", withIntermediateDirectories: false)
        let run = try await folder.start()
        #expect(run.status == 2)
        #expect(run.standardError.contains("cannot create the lock file \(folder.data)/lock: Is a directory."),
                "\(run.standardError)")
    }
}
