@testable import StateDeckServer
import TestSupport
import Testing

extension Live {
    /// Every answer is hardened: the transport adds the security headers to the routes' answers,
    /// the gate's refusals and its own.
    @Suite struct HardenedAnswersTests {
        static let securityHeaders = SecurityHeaders.all.map(\.name)

        @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
            try await LiveServer.run { server in
                let answers = [
                    try await server.get("/"),
                    try await server.get("/missing"),
                    try await server.post("/app.js"),
                    try await server.get("/api/state"),
                    try await server.post("/api/panels/api/recover", json: "{"),
                    try await server.post("/api/panels/api/retry"),
                    try await server.raw("GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"),
                ]
                for answer in answers {
                    #expect(Self.securityHeaders.filter { answer.header($0) == nil } == [], "\(answer.status)")
                }
            }
        }

        @Test("The transport's own refusals carry the security headers too")
        func transportAnswersCarryTheSecurityHeadersToo() async throws {
            try await LiveServer.run { server in
                let tooLarge = try await server.post("/api/panels/api/recover", json: String(repeating: " ", count: 70 * 1024))
                let badTarget = try await server.raw("GET", target: "/%c0%ae")
                #expect(tooLarge.status == 413)
                #expect(badTarget.status == 400)
                for answer in [tooLarge, badTarget] {
                    #expect(Self.securityHeaders.filter { answer.header($0) == nil } == [], "\(answer.status)")
                }
            }
        }
    }
}
