import StateDeck
@testable import StateDeckServer
import TestSupport
import Testing

extension Routed {
    /// The gate in front of every route: `Host` must name the server, live state is refused to
    /// other sites and origins, and a token, when set, is required. Asked of the responder
    /// (HardenedAnswersTests has the headers the transport adds to every answer).
    @Suite struct RequestGateTests {
        @Test func hostMustNameThisServer() async throws {
            try await RoutedServer.run { server in
                let port = server.port
                for host in ["127.0.0.1:\(port)", "localhost:\(port)"] {
                    let response = try await server.routed.request("GET", "/api/state", headers: [("Host", host)])
                    #expect(response.status == 200, "\(host)")
                }
                for host in ["127.0.0.1", "evil.example:\(port)", "127.0.0.1:\(port + 1)", "localhost.evil.example:\(port)"] {
                    let response = try await server.routed.request("GET", "/index.html", headers: [("Host", host)])
                    #expect(response.status == 403, "\(host)")
                    #expect(response.apiError?.code == "forbidden", "\(host)")
                }
            }
        }

        @Test func crossSiteOrCrossOriginRequestsForLiveStateAreRefusedAndChangeNothing() async throws {
            try await RoutedServer.run { server in
                let before = try await server.get("/api/state").text
                for header in [
                    ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Site", "same-site"),
                    ("Origin", "http://evil.example"), ("Origin", "http://127.0.0.1:\(server.port + 1)"),
                ] {
                    let post = try await server.request(
                        "POST", "/api/debug/panels/api/state", headers: [header, ("Content-Type", "application/json")],
                        body: Array(#"{"state":"loading"}"#.utf8))
                    #expect(post.status == 403, "\(header)")
                    #expect(post.apiError?.code == "forbidden", "\(header)")
                    #expect(try await server.get("/api/state", headers: [header]).status == 403, "\(header)")
                    #expect(try await server.get("/events", headers: [header]).status == 403, "\(header)")
                    #expect(try await server.get("/metrics", headers: [header]).status == 403, "\(header)")
                }
                #expect(try await server.get("/api/state").text == before)
                // The page's own requests pass.
                let own = try await server.request(
                    "POST", "/api/panels/api/retry",
                    headers: [("Sec-Fetch-Site", "same-origin"), ("Origin", "http://127.0.0.1:\(server.port)")])
                #expect(own.status == 202)
            }
        }

        @Test func withATokenEveryRequestMustCarryIt() async throws {
            var options = RoutedServer.Options()
            let token = AccessToken.generate()
            options.token = token
            try await RoutedServer.run(options) { server in
                #expect(try await server.get("/api/state").status == 403)
                #expect(try await server.get("/").status == 403)
                #expect(try await server.get("/api/state", headers: [("Authorization", "Bearer wrong")]).status == 403)
                #expect(try await server.get("/api/state", headers: [("Authorization", "Bearer \(token)")]).status == 200)
                #expect(try await server.get("/metrics").status == 403)
                #expect(try await server.get("/metrics", headers: [("Authorization", "Bearer \(token)")]).status == 200)

                let visit = try await server.get("/?token=\(token)")
                #expect(visit.status == 303)
                #expect(visit.header("Location") == "/")
                let cookie = try #require(visit.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
                #expect(cookie == "statedeck-token-\(server.port)=\(token)")
                #expect(try await server.get("/app.js", headers: [("Cookie", cookie)]).status == 200)
                #expect(try await server.get("/?token=wrong").status == 403)
            }
        }
    }
}
