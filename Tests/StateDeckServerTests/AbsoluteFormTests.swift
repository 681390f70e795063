import TestSupport
import Testing

extension Live {
    /// An absolute-form target (`GET http://host:port/path`) is served as its path, and its
    /// authority, not the `Host` header, must name this server.
    @Suite struct AbsoluteFormTests {
        @Test func anAbsoluteTargetNamingThisServerIsServed() async throws {
            try await LiveServer.run { server in
                let own = try await server.raw(
                    "GET http://127.0.0.1:\(server.port)/api/panels/api HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
                #expect(own.status == 200)
                #expect(own.text.contains(#""id":"api""#))
            }
        }

        @Test(arguments: ["http://evil.example/api/state", "http://127.0.0.1/api/state", "http://localhost:1/api/state"])
        func anAbsoluteTargetNamingAnotherHostIsRefusedWhateverTheHostHeader(target: String) async throws {
            try await LiveServer.run { server in
                let other = try await server.raw(
                    "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
                #expect(other.status == 403)
                #expect(other.apiError?.message == "this server does not answer to that Host")
            }
        }
    }
}
