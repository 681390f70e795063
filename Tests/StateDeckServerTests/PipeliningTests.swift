import Foundation
import TestSupport
import Testing

extension Live {
    /// Requests sent back to back on one connection are each answered, in order, whatever the
    /// first one was: a deferred POST with or without a body, chunked, or refused.
    @Suite struct PipeliningTests {
        @Test(arguments: [
            "POST /api/panels/api/retry HTTP/1.1\r\n{host}Content-Length: 0\r\n\r\n",
            "POST /api/panels/api/recover HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 19\r\n\r\n{\"option\":\"cancel\"}",
            "POST /api/panels/api/retry HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "POST /api/panels/nope/retry HTTP/1.1\r\n{host}\r\n",
        ])
        func aGetPipelinedAfterAPostIsAnswered(first: String) async throws {
            try await LiveServer.run { server in
                let port = server.port
                let host = "Host: 127.0.0.1:\(port)\r\n"
                let requests = first.replacingOccurrences(of: "{host}", with: host)
                    + "GET /api/panels/jobs HTTP/1.1\r\n\(host)\r\n"
                let statuses = try await offPool {
                    let connection = try HTTPTestConnection(port: port)
                    defer { connection.close() }
                    try connection.send(requests)
                    return [try connection.readResponse().status, try connection.readResponse().status]
                }
                #expect([202, 404, 409].contains(statuses[0]), "\(statuses)")
                #expect(statuses[1] == 200, "\(statuses)")
            }
        }
    }
}
