import Foundation
import MicroHTTP
import Testing
@testable import StateDeckServer

/// The static file manifest, without sockets.
@Suite struct StaticFilesTests {
    @Test func contentTypesComeFromTheFixedTable() {
        #expect(ContentType.forPath("app.js") == "text/javascript; charset=utf-8")
        #expect(ContentType.forPath("a/b/styles.css") == "text/css; charset=utf-8")
        #expect(ContentType.forPath("icons.svg") == "image/svg+xml")
        #expect(ContentType.forPath("font.WOFF2") == "font/woff2")
        #expect(ContentType.forPath("README") == "application/octet-stream")
        #expect(ContentType.forPath("dir.d/file") == "application/octet-stream")
    }

    @Test func etagsMatchExactlyWeaklyOrStar() {
        let tag = ETag.strong(for: Array("hello".utf8))
        #expect(ETag.matches(tag, ifNoneMatch: tag))
        #expect(ETag.matches(tag, ifNoneMatch: "\"other\", \(tag)"))
        #expect(ETag.matches(tag, ifNoneMatch: "W/\(tag)"))
        #expect(ETag.matches(tag, ifNoneMatch: "*"))
        #expect(!ETag.matches(tag, ifNoneMatch: "\"other\""))
        #expect(!ETag.matches(tag, ifNoneMatch: nil))
        #expect(tag != ETag.strong(for: Array("hellp".utf8)))
    }

    /// The page compiled in is the repository's `Public/` as a folder serves it: the same files,
    /// byte for byte, under the same tags.
    @Test func thePageBuiltInIsTheFolderItWasBuiltFrom() throws {
        let folder = try StaticFiles(directory: RepositoryFile.root.appendingPathComponent("Public"))
        let embedded = StaticFiles.embedded
        #expect(folder.headEntries.count > 10)
        #expect(embedded.headEntries.keys.sorted() == folder.headEntries.keys.sorted())
        for (target, entry) in folder.headEntries {
            let built = try #require(embedded.headEntries[target])
            #expect(built.body.bytes == entry.body.bytes, "\(target)")
            #expect(built.etag == entry.etag && built.headers == entry.headers, "\(target)")
        }
        #expect(embedded.entry(for: [""])?.body.bytes == folder.entry(for: ["index.html"])?.body.bytes)
    }

    /// Every served file is kept in memory from the start: one past the limit is refused before
    /// anything is read, naming the file.
    @Test func aFilePastTheSizeLimitIsRefusedAtStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statedeck-big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<!doctype html>".utf8).write(to: folder.appendingPathComponent("index.html"))
        let fits = folder.appendingPathComponent("fits.bin")
        #expect(FileManager.default.createFile(atPath: fits.path, contents: nil))
        try FileHandle(forWritingTo: fits).truncate(atOffset: UInt64(StaticFiles.maximumFileSize))
        _ = try StaticFiles(directory: folder)

        let big = folder.appendingPathComponent("video.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        try FileHandle(forWritingTo: big).truncate(atOffset: 20 << 20)
        #expect {
            try StaticFiles(directory: folder)
        } throws: { error in
            "\(error)" == "\(big.path) is 20 MiB; the page's files are kept in memory and may be at most 8 MiB each: move it out of the folder"
        }
    }
}
