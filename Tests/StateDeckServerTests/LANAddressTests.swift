import DeckTestSupport
import StateDeck
@testable import StateDeckServer
import TestSupport
import Testing

extension Live {
    /// A server bound beyond loopback that asks for tokens is opened by the machine's own
    /// addresses: `Host` and `Origin` naming any of them with the bound port pass the gate, others
    /// do not; and wrong tokens are counted per client address, read off the connection.
    @Suite struct LANAddressTests {
        static let token = AccessToken.generate()

        static func run(host: String, _ body: (LiveDeckServer) async throws -> Void) async throws {
            var options = LiveDeckServer.Options()
            options.host = host
            options.access = AccessList([AccessList.Entry(name: "ops", role: .operator, digest: TokenDigest(of: "\(token)"))])
            let deck = Deck("LAN") { Panel("p", title: "P") { Info(summary: "ok") }.minimumLoadingTime(.zero) }
            try await LiveDeckServer.run(deck, options, files: ["index.html": "<!doctype html><title>LAN</title>\n"], body)
        }

        /// The first of this machine's addresses that is not loopback, as `Host` writes it and as a
        /// socket connects to it.
        static func lanAddress() throws -> (host: String, connect: String) {
            let own = try #require(MachineAddresses.current().first { $0 != "127.0.0.1" && $0 != "[::1]" && !$0.hasPrefix("127.") },
                                   "this machine has no address beyond loopback")
            return (own, own.hasPrefix("[") ? String(own.dropFirst().dropLast()) : own)
        }

        @Test func boundToEveryAddressItAnswersToItsLANAddress() async throws {
            let lan = try Self.lanAddress()
            try await Self.run(host: lan.connect.contains(":") ? "::" : "0.0.0.0") { server in
                let port = server.port
                // Raw, so that `Host` is the one given, alone.
                let ask: (String, String, [(String, String)]) async throws -> HTTPTestResponse = { method, path, headers in
                    let head = "\(method) \(path) HTTP/1.1\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined()
                        + (method == "POST" ? "Content-Length: 0\r\n" : "") + "\r\n"
                    return try await offPool { try HTTPTestClient.send(head, port: port, host: lan.connect) }
                }
                let bearer = ("Authorization", "Bearer \(Self.token)")
                let state = try await ask("GET", "/api/state", [("Host", "\(lan.host):\(port)"), bearer])
                #expect(state.status == 200)
                let retry = try await ask("POST", "/api/panels/p/retry", [
                    ("Host", "\(lan.host):\(port)"), ("Origin", "http://\(lan.host):\(port)"), bearer,
                ])
                #expect(retry.status == 202)
                for refused in [[("Host", "\(lan.host):\(port + 1)"), bearer], [("Host", "evil.example:\(port)"), bearer],
                                [("Host", "\(lan.host):\(port)")]] {
                    let response = try await ask("GET", "/api/state", refused)
                    #expect(response.status == 403, "\(refused)")
                }
            }
        }

        @Test func boundToTheLANAddressItselfItAnswersToItToo() async throws {
            let lan = try Self.lanAddress()
            try await Self.run(host: lan.connect) { server in
                let port = server.port
                // `Host` is the address connected to, as a browser sends it.
                let response = try await offPool {
                    try HTTPTestClient.request("GET", "/api/state", port: port, host: lan.connect,
                                               headers: [("Authorization", "Bearer \(Self.token)")])
                }
                #expect(response.status == 200)
            }
        }

        @Test func elevenWrongTokensFromOneAddressAre429WithRetryAfter() async throws {
            try await Self.run(host: "127.0.0.1") { server in
                for guess in 1...10 {
                    let response = try await server.get("/api/state", headers: [("Authorization", "Bearer guess-\(guess)")])
                    #expect(response.status == 403)
                }
                let limited = try await server.get("/api/state", headers: [("Authorization", "Bearer \(Self.token)")])
                #expect(limited.status == 429)
                #expect(limited.errorCode == "too_many_attempts")
                #expect(Int(limited.header("Retry-After") ?? "").map { (59...60).contains($0) } == true)
                // A request bringing no token is refused as before, not counted.
                #expect(try await server.get("/api/state").status == 403)
            }
        }
    }
}
