import Foundation
import TestSupport
import Testing

extension Routed {
    /// `Public/` as the routes serve it: content types, `/`, ETag and 304, 404 and 405, asked of
    /// the responder (StaticHeadRequestTests has HEAD over a connection).
    @Suite struct StaticRoutesTests {
        @Test func everyFileIsServedWithItsContentType() async throws {
            try await RoutedServer.run { server in
                for (path, type) in PublicFolder.contentTypes {
                    let response = try await server.get("/" + path)
                    #expect(response.status == 200, "\(path)")
                    #expect(response.header("Content-Type") == type, "\(path)")
                    #expect(response.text == PublicFolder.files[path], "\(path)")
                }
            }
        }

        @Test func rootServesIndexHTML() async throws {
            try await RoutedServer.run { server in
                let root = try await server.get("/")
                let index = try await server.get("/index.html")
                #expect(root.status == 200)
                #expect(root.header("Content-Type") == "text/html; charset=utf-8")
                #expect(root.text == PublicFolder.files["index.html"])
                #expect(root.header("ETag") == index.header("ETag"))
            }
        }

        @Test func matchingETagAnswers304WithoutABody() async throws {
            try await RoutedServer.run { server in
                let first = try await server.get("/app.js")
                let etag = try #require(first.header("ETag"))
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong, quoted tag")

                let again = try await server.get("/app.js", headers: [("If-None-Match", etag)])
                #expect(again.status == 304)
                #expect(again.body.isEmpty)
                #expect(again.header("ETag") == etag)

                let listed = try await server.get("/app.js", headers: [("If-None-Match", "\"other\", \(etag)")])
                #expect(listed.status == 304)

                let stale = try await server.get("/app.js", headers: [("If-None-Match", "\"stale\"")])
                #expect(stale.status == 200)
                #expect(stale.text == PublicFolder.files["app.js"])

                let otherFile = try await server.get("/styles.css")
                #expect(otherFile.header("ETag") != etag)
            }
        }

        @Test func unknownFileIs404InTheJSONErrorShape() async throws {
            try await RoutedServer.run { server in
                for path in ["/missing.js", "/dir/missing.svg", "/dir/", "/dir", "/index.htm"] {
                    let response = try await server.get(path)
                    #expect(response.status == 404, "\(path)")
                    #expect(response.apiError?.code == "not_found", "\(path)")
                    #expect(response.header("Content-Type")?.hasPrefix("application/json") == true, "\(path)")
                }
            }
        }

        @Test func postOnAFileIs405WithAllow() async throws {
            try await RoutedServer.run { server in
                for path in ["/app.js", "/", "/dir/file.svg"] {
                    let response = try await server.post(path, json: "{}")
                    #expect(response.status == 405, "\(path)")
                    #expect(response.header("Allow") == "GET, HEAD", "\(path)")
                    #expect(response.apiError?.code == "method_not_allowed", "\(path)")
                }
                let delete = try await server.request("DELETE", "/styles.css")
                #expect(delete.status == 405)
                #expect(delete.apiError?.code == "method_not_allowed")
            }
        }
    }
}
