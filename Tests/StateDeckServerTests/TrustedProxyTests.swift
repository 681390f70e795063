import MicroHTTP
@testable import StateDeckServer
import Testing

/// `--trusted-proxy`: which peers' `X-Forwarded-For` is believed, and which address of it counts.
@Suite struct TrustedProxyTests {
    static let proxy = ClientAddress(bytes: [10, 0, 0, 5])!
    static let proxies = [try! TrustedProxy(parsing: "10.0.0.0/24"), try! TrustedProxy(parsing: "fd00::/8")]

    static func client(peer: ClientAddress?, _ forwardedFor: [String]) -> String? {
        TrustedProxy.client(peer: peer, forwardedFor: forwardedFor, proxies: proxies)?.description
    }

    @Test func addressesAndRangesAreReadAndBadOnesNamed() throws {
        #expect(try TrustedProxy(parsing: "10.0.0.5").contains(Self.proxy))
        #expect(try !TrustedProxy(parsing: "10.0.0.5").contains(ClientAddress(bytes: [10, 0, 0, 6])!))
        #expect(try TrustedProxy(parsing: "10.0.0.0/8").contains(ClientAddress(bytes: [10, 200, 1, 1])!))
        #expect(try TrustedProxy(parsing: "0.0.0.0/0").contains(ClientAddress(bytes: [192, 0, 2, 1])!))
        #expect(try TrustedProxy(parsing: "::1").contains(ClientAddress(bytes: [UInt8](repeating: 0, count: 15) + [1])!))
        #expect(try !TrustedProxy(parsing: "0.0.0.0/0").contains(ClientAddress(bytes: [UInt8](repeating: 0, count: 15) + [1])!),
                "an IPv4 range holds no IPv6 address")
        #expect(try TrustedProxy(parsing: "10.0.0.0/8").contains(ClientAddress(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 10, 1, 2, 3])!),
                "an IPv4-mapped peer is its IPv4 address")
        for (text, reason) in [("proxy.example", "give an IPv4 or IPv6 address"), ("10.0.0.0/33", "from 0 to 32"),
                               ("fd00::/129", "from 0 to 128"), ("10.0.0.0/+8", "from 0 to 32"), ("10.0.0.0/", "from 0 to 32")] {
            #expect(throws: TrustedProxy.Invalid.self, "\(text)") { try TrustedProxy(parsing: text) }
            do {
                _ = try TrustedProxy(parsing: text)
            } catch {
                #expect(error.description.hasPrefix("--trusted-proxy \(text): "), "\(error)")
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }

    @Test func theRightMostAddressNoTrustedProxyWroteCounts() {
        // What the client wrote itself (left of the proxies' entries) is ignored.
        #expect(Self.client(peer: Self.proxy, ["6.6.6.6, 192.0.2.7"]) == "192.0.2.7")
        #expect(Self.client(peer: Self.proxy, ["6.6.6.6", "192.0.2.7, 10.0.0.9"]) == "192.0.2.7", "every field, a chain of proxies")
        #expect(Self.client(peer: Self.proxy, [" [2001:db8::7] "]) == "2001:db8::7")
        #expect(Self.client(peer: Self.proxy, []) == "10.0.0.5", "no header: the proxy itself")
        #expect(Self.client(peer: Self.proxy, ["10.0.0.8, 10.0.0.9"]) == "10.0.0.8", "proxies alone: the left-most")
        #expect(Self.client(peer: Self.proxy, ["192.0.2.7, unknown"]) == "10.0.0.5", "a bad entry ends the walk at its proxy")
        #expect(Self.client(peer: Self.proxy, ["192.0.2.7, 10.0.0.9:443"]) == "10.0.0.5")
        #expect(Self.client(peer: ClientAddress(bytes: [192, 0, 2, 50])!, ["192.0.2.7"]) == "192.0.2.50",
                "from any other peer the header is ignored")
        #expect(TrustedProxy.client(peer: Self.proxy, forwardedFor: ["192.0.2.7"], proxies: [])?.description == "10.0.0.5",
                "without --trusted-proxy, no header is believed")
    }

    /// Behind a named proxy each user's wrong tokens count against their own address; a client that
    /// is no proxy cannot spread its guesses by writing `X-Forwarded-For`.
    @Test func theGateCountsWrongTokensByTheAddressANamedProxySaw() throws {
        let token = AccessToken.generate()
        let gate = RequestGate(configuredHost: "127.0.0.1", access: AccessList(token: token), trustedProxies: Self.proxies)
        gate.bind(port: 8080)
        let request = { (peer: ClientAddress, forwardedFor: String, token: String) throws -> HTTPRequest in
            try HTTPRequest(method: .get, target: "/api/state",
                            headers: ["Host": "127.0.0.1:8080", "Authorization": "Bearer \(token)", "X-Forwarded-For": forwardedFor],
                            client: peer)
        }
        for attempt in 1...10 {
            #expect(gate.intercept(try request(Self.proxy, "198.51.100.9", "guess-\(attempt)"))?.status == .forbidden)
        }
        #expect(gate.intercept(try request(Self.proxy, "198.51.100.9", "\(token)"))?.status == .tooManyRequests)
        #expect(gate.intercept(try request(Self.proxy, "192.0.2.7", "\(token)")) == nil, "another user behind the proxy")
        #expect(gate.intercept(try request(Self.proxy, "198.51.100.9, 192.0.2.7", "\(token)")) == nil,
                "the guesser's address written by a client is not the proxy's word")
        let direct = ClientAddress(bytes: [203, 0, 113, 4])!
        for attempt in 1...10 {
            #expect(gate.intercept(try request(direct, "192.0.2.\(attempt)", "guess-\(attempt)"))?.status == .forbidden)
        }
        #expect(gate.intercept(try request(direct, "192.0.2.99", "guess"))?.status == .tooManyRequests,
                "a peer that is no proxy counts as itself whatever it writes")
    }
}
