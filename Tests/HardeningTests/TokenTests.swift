import DeckTestSupport
import Foundation
import StateDeck
import StateDeckServer
import TestSupport
import Testing

extension Live {
    /// A dashboard reachable by others opens only with its token.
    @Suite("Access token") struct TokenTests {
        @Test("A visit with the token gets an HttpOnly, SameSite=Strict cookie for this port and the same path without it")
        func visitTradesTheTokenForACookie() async throws {
            let token = AccessToken.generate()
            try await LiveDeckServer.run(Fixtures.instantDeck(), Self.guarded(token), files: Fixtures.pageFiles) { harness in
                let visit = try await harness.get("/app.js?token=\(token)&theme=dark")
                #expect(visit.status == 303)
                #expect(visit.header("Location") == "/app.js")
                #expect(visit.header("Cache-Control") == "no-store")
                let cookie = try #require(visit.header("Set-Cookie"))
                let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(attributes.first == "statedeck-token-\(harness.port)=\(token)")
                #expect(attributes.contains("HttpOnly"))
                #expect(attributes.contains("SameSite=Strict"))
                #expect(attributes.contains("Path=/"))
                let followed = try await harness.get("/app.js", headers: [("Cookie", String(attributes[0]))])
                #expect(followed.status == 200)
                #expect(followed.text == Fixtures.pageFiles["app.js"])
            }
        }

        @Test("Only the whole token opens the dashboard")
        func onlyTheWholeToken() async throws {
            let token = AccessToken.generate()
            let value = "\(token)"
            try await LiveDeckServer.run(Fixtures.instantDeck(), Self.guarded(token), files: Fixtures.pageFiles) { harness in
                let cookie = "statedeck-token-\(harness.port)"
                let near: [(String, String)] = [
                    ("Authorization", "Bearer \(value.dropLast())"),
                    ("Authorization", "Bearer \(value)0"),
                    ("Authorization", "Bearer \(value.uppercased())"),
                    ("Authorization", "Bearer "),
                    ("Authorization", "Bearer \(value) x"),
                    ("Authorization", "Bearerx \(value)"),
                    ("Authorization", "Basic \(value)"),
                    ("Authorization", value),
                    ("Cookie", "\(cookie)=\(value.prefix(16))"),
                    ("Cookie", "\(cookie)="),
                    ("Cookie", "x\(cookie)=\(value)"),
                ]
                for header in near {
                    let response = try await harness.get("/api/state", headers: [header])
                    #expect(response.status == 403, "\(header.0): \(header.1)")
                }
                // The scheme in any case, and spaces or tabs after it (RFC 7235, RFC 9110).
                for authorization in ["Bearer \(value)", "bearer \(value)", "BEARER \(value)", "Bearer  \(value)", "Bearer\t\(value)"] {
                    let response = try await harness.get("/api/state", headers: [("Authorization", authorization)])
                    #expect(response.status == 200, "\(authorization)")
                }
            }
        }

        @Test("A token visit never sends the browser to another host", arguments: [
            "//evil.example/", "/%2Fevil.example", "/%2F%2Fevil.example", "/%5Cevil.example", "/%5C%5Cevil.example",
            "/\\evil.example",
        ])
        func visitStaysOnThisServer(path: String) async throws {
            let token = AccessToken.generate()
            try await LiveDeckServer.run(Fixtures.instantDeck(), Self.guarded(token), files: Fixtures.pageFiles) { harness in
                let separator = path.contains("?") ? "&" : "?"
                let visit = try await harness.get("\(path)\(separator)token=\(token)")
                #expect(visit.status == 303)
                let location = visit.header("Location") ?? ""
                #expect(Self.staysOnThisServer(location), "Location: \(location)")
            }
        }

        @Test("A token visit keeps CR and LF out of the answer's head")
        func visitCannotInjectHeaders() async throws {
            let token = AccessToken.generate()
            try await LiveDeckServer.run(Fixtures.instantDeck(), Self.guarded(token), files: Fixtures.pageFiles) { harness in
                let visit = try await harness.get("/a%0d%0aSet-Cookie:%20injected=1%0d%0a?token=\(token)")
                #expect(visit.status == 303)
                #expect(!visit.headers.contains { $0.name.lowercased() == "set-cookie" && $0.value.contains("injected") })
                #expect(visit.headers.filter { $0.name.lowercased() == "set-cookie" }.count == 1)
            }
        }

        static func guarded(_ token: AccessToken) -> LiveDeckServer.Options {
            var options = LiveDeckServer.Options()
            options.token = token
            return options
        }

        /// A path-absolute reference: browsers read `//x` and `/\x` as another host.
        static func staysOnThisServer(_ location: String) -> Bool {
            let scalars = Array(location.unicodeScalars)
            guard scalars.first == "/" else { return false }
            return scalars.count == 1 || (scalars[1] != "/" && scalars[1] != "\\")
        }
    }
}
