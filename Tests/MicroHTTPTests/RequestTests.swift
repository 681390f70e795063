import MicroHTTP
import Testing

/// Request targets decoded once, without a server.
@Suite struct RequestTests {
    @Test func segmentsAreDecodedExactlyOnce() throws {
        let request = try HTTPRequest(method: .get, target: "/a/%2e%2e/b%2Fc/%252e/%C3%A9")
        #expect(request.pathSegments == ["a", "..", "b/c", "%2e", "é"])
        #expect(request.target == "/a/%2e%2e/b%2Fc/%252e/%C3%A9")
    }

    @Test func rootAndTrailingSlash() throws {
        #expect(try HTTPRequest(method: .get, target: "/").pathSegments == [""])
        #expect(try HTTPRequest(method: .get, target: "/a/").pathSegments == ["a", ""])
        #expect(try HTTPRequest(method: .get, target: "/a/b?x").path == "/a/b")
    }

    @Test func queryItemsInOrder() throws {
        let query = try HTTPRequest(method: .get, target: "/s?q=a+b%26c&flag&q=2&empty=").query
        #expect(query["q"] == "a b&c")
        #expect(query["flag"] == "")
        #expect(query["missing"] == nil)
        #expect(query.map(\.name) == ["q", "flag", "q", "empty"])
    }

    @Test(arguments: ["/a%", "/a%2", "/a%zz", "/a?x=%g0"])
    func malformedPercentEncodingIsRefused(target: String) {
        #expect(throws: HTTPRequest.TargetError.malformedPercentEncoding) {
            try HTTPRequest(method: .get, target: target)
        }
    }

    @Test(arguments: [
        "/%ff", "/%C3", "/a%C3%28", "/%C0%AF", "/%ED%A0%80", "/%F4%90%80%80", "/%E2%82", "/x?q=%E2%82%28",
    ])
    func nonUTF8AfterDecodingIsRefused(target: String) {
        #expect(throws: HTTPRequest.TargetError.notUTF8) { try HTTPRequest(method: .get, target: target) }
    }

    @Test func everyValidUTF8SequenceIsKept() throws {
        // A literal U+FFFD is valid input, not a sign of repair.
        let request = try HTTPRequest(method: .get, target: "/%EF%BF%BD/%F0%9F%98%80/%E2%82%AC/%7F?k=%C2%A0")
        #expect(request.pathSegments == ["\u{FFFD}", "😀", "€", "\u{7F}"])
        #expect(request.query["k"] == "\u{A0}")
    }

    @Test(arguments: ["*", "example.com:80", "", "ftp://example.com/", "http://", "http://user@example.com/", "http:/x"])
    func anythingButOriginAndAbsoluteFormIsRefused(target: String) {
        #expect(throws: HTTPRequest.TargetError.notOriginForm) { try HTTPRequest(method: .get, target: target) }
    }

    /// An absolute-form target is served like its path, its authority standing in for `Host`.
    @Test func absoluteFormGivesItsAuthorityAndPath() throws {
        let full = try HTTPRequest(method: .get, target: "HTTP://Example.com:8080/a/b%2Fc?x=1")
        #expect(full.authority == "Example.com:8080")
        #expect(full.pathSegments == ["a", "b/c"])
        #expect(full.query["x"] == "1")
        let bare = try HTTPRequest(method: .get, target: "https://example.com?x=2")
        #expect(bare.authority == "example.com" && bare.pathSegments == [""] && bare.query["x"] == "2")
        #expect(try HTTPRequest(method: .get, target: "/a").authority == nil)
    }

    @Test func headersAreCaseInsensitiveAndOrdered() {
        var headers: HTTPHeaders = ["Accept": "a", "X-One": "1"]
        headers.add("accept", "b")
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "Accept") == ["a", "b"])
        headers.set("Accept", "c")
        #expect(headers.map(\.name) == ["X-One", "Accept"])
    }
}
