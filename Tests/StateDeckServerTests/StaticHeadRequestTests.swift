import Foundation
import TestSupport
import Testing

extension Live {
    /// HEAD of a file over a connection: the headers of GET, `Content-Length` included, and no body.
    @Suite struct StaticHeadRequestTests {
        @Test func headSendsTheHeadersOfGetButNoBody() async throws {
            try await LiveServer.run { server in
                let port = server.port
                let (head, next) = try await offPool {
                    // One connection: were a body sent after the HEAD answer, the next answer's
                    // status line would not parse.
                    let connection = try HTTPTestConnection(port: port)
                    defer { connection.close() }
                    try connection.send("HEAD", "/styles.css")
                    let head = try connection.readResponse(bodyless: true)
                    try connection.send("GET", "/app.js")
                    return (head, try connection.readResponse())
                }
                #expect(head.status == 200)
                #expect(head.header("Content-Type") == "text/css; charset=utf-8")
                #expect(head.header("Content-Length") == String(PublicFolder.files["styles.css"]!.utf8.count))
                #expect(head.header("ETag") != nil)
                #expect(next.status == 200)
                #expect(next.text == PublicFolder.files["app.js"])
            }
        }
    }
}
