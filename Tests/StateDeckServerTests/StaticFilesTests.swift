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
}
