import Locking
import MicroHTTP
@testable import StateDeckServer
import Testing

/// Wrong tokens per client address on a virtual clock: the 11th wrong token within a minute of
/// the first turns every request bringing a token away with 429 until that minute ends, but for a
/// token accepted from that address before.
@Suite struct FailedTokenAttemptsTests {
    /// A clock the test moves.
    final class Time: Sendable {
        private let now = Locked(Duration.zero)
        func advance(_ by: Duration) { now.withLock { $0 += by } }
        var read: @Sendable () -> Duration { { [now] in now.current } }
    }

    static let client = ClientAddress(bytes: [192, 0, 2, 7])!
    static let neighbour = ClientAddress(bytes: [192, 0, 2, 8])!

    @Test func tenFailuresInAWindowShutTheAddressOutUntilItsEnd() {
        let time = Time()
        let attempts = FailedTokenAttempts(now: time.read)
        for _ in 0..<9 { attempts.recordFailure(of: Self.client) }
        #expect(attempts.wait(for: Self.client) == nil)
        time.advance(.seconds(20))
        attempts.recordFailure(of: Self.client)
        #expect(attempts.wait(for: Self.client) == .seconds(40))
        #expect(attempts.wait(for: Self.neighbour) == nil)
        time.advance(.seconds(39))
        #expect(attempts.wait(for: Self.client) == .seconds(1))
        time.advance(.seconds(1))
        #expect(attempts.wait(for: Self.client) == nil)
        // A new window starts with the next failure.
        attempts.recordFailure(of: Self.client)
        #expect(attempts.wait(for: Self.client) == nil)
    }

    @Test func anIPv6ClientCountsByItsSlash64() {
        let attempts = FailedTokenAttempts(now: Time().read)
        for last in 0..<10 {
            attempts.recordFailure(of: ClientAddress(bytes: [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 7) + [UInt8(last)])!)
        }
        #expect(attempts.wait(for: ClientAddress(bytes: [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1] + [UInt8](repeating: 9, count: 8))!) == .seconds(60))
        #expect(attempts.wait(for: ClientAddress(bytes: [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 8))!) == nil)
    }

    @Test func theTableHoldsAtMostItsCapDroppingEndedWindowsThenTheOldest() {
        let time = Time()
        let attempts = FailedTokenAttempts(limit: .init(failures: 2, window: .seconds(60), addresses: 3), now: time.read)
        let addresses = (1...5).map { ClientAddress(bytes: [10, 0, 0, UInt8($0)])! }
        for address in addresses.prefix(3) {
            attempts.recordFailure(of: address)
            attempts.recordFailure(of: address)
            time.advance(.seconds(10))
        }
        #expect(attempts.addressCount == 3)
        attempts.recordFailure(of: addresses[3])
        #expect(attempts.addressCount == 3)
        // The oldest window went to make room; the others still hold.
        #expect(attempts.wait(for: addresses[0]) == nil)
        #expect(attempts.wait(for: addresses[1]) == .seconds(40))
        time.advance(.seconds(55))
        attempts.recordFailure(of: addresses[4])
        // Past their end, the first windows went together.
        #expect(attempts.addressCount == 2)
    }

    @Test func theGateAnswers429WithRetryAfterThenLetsTheRightTokenIn() throws {
        let time = Time()
        let token = AccessToken.generate()
        let gate = RequestGate(configuredHost: "127.0.0.1", access: AccessList(token: token),
                               attempts: FailedTokenAttempts(now: time.read))
        gate.bind(port: 8080)
        let request = { (client: ClientAddress?, authorization: String?) throws -> HTTPRequest in
            var headers: HTTPHeaders = ["Host": "127.0.0.1:8080"]
            if let authorization { headers.add("Authorization", authorization) }
            return try HTTPRequest(method: .get, target: "/api/state", headers: headers, client: client)
        }
        for attempt in 1...10 {
            #expect(gate.intercept(try request(Self.client, "Bearer guess-\(attempt)"))?.status == .forbidden)
        }
        time.advance(.milliseconds(1_500))
        let refused = try #require(gate.intercept(try request(Self.client, "Bearer \(token)")))
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] == "59")
        #expect(refused.headers["Cache-Control"] == "no-store")
        guard case .bytes(let body) = refused.body else { Issue.record("no body"); return }
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"error":{"code":"too_many_attempts","message":"too many wrong tokens from this address: try again in 59 s"}}"#)
        // A request bringing no token is the usual 403.
        #expect(gate.intercept(try request(Self.client, nil))?.status == .forbidden)
        #expect(gate.intercept(try request(Self.neighbour, "Bearer \(token)")) == nil)
        #expect(gate.intercept(try request(nil, "Bearer \(token)")) == nil)
        time.advance(.milliseconds(58_500))
        #expect(gate.intercept(try request(Self.client, "Bearer \(token)")) == nil)
        // Wrong ?token= visits count too, and the right token, never brought from there, is then refused.
        let newcomer = ClientAddress(bytes: [192, 0, 2, 9])!
        for _ in 1...10 {
            let visit = try HTTPRequest(method: .get, target: "/?token=guess", headers: ["Host": "127.0.0.1:8080"], client: newcomer)
            #expect(gate.intercept(visit)?.status == .forbidden)
        }
        #expect(gate.intercept(try request(newcomer, "Bearer \(token)"))?.status == .tooManyRequests)
    }

    /// Someone sharing the operator's address (a NAT, a proxy not named) sends wrong tokens: the
    /// operator, in before, is still served, and the guesses are still refused, a right token
    /// never brought from there before among them.
    @Test func aTokenAcceptedBeforeIsServedOverTheLimitWhileGuessesStayRefused() throws {
        let time = Time()
        let operatorToken = AccessToken.generate()
        let otherToken = AccessToken.generate()
        let gate = RequestGate(configuredHost: "127.0.0.1", access: AccessList([
            AccessList.Entry(name: "olga", role: .operator, digest: TokenDigest(of: "\(operatorToken)")),
            AccessList.Entry(name: "carl", role: .viewer, digest: TokenDigest(of: "\(otherToken)")),
        ]), attempts: FailedTokenAttempts(now: time.read))
        gate.bind(port: 8080)
        let request = { (client: ClientAddress, token: String) throws -> HTTPRequest in
            try HTTPRequest(method: .get, target: "/api/state",
                            headers: ["Host": "127.0.0.1:8080", "Authorization": "Bearer \(token)"], client: client)
        }
        #expect(gate.intercept(try request(Self.client, "\(operatorToken)")) == nil)
        for attempt in 1...10 {
            #expect(gate.intercept(try request(Self.client, "guess-\(attempt)"))?.status == .forbidden)
        }
        for minute in 0..<3 {
            for second in 0..<6 {
                #expect(gate.intercept(try request(Self.client, "\(operatorToken)")) == nil, "minute \(minute), \(second * 10) s")
                #expect(gate.intercept(try request(Self.client, "guess-\(minute)-\(second)"))?.status == .tooManyRequests)
                time.advance(.seconds(10))
            }
            // Ten a minute keep the address over its limit, and nothing new is tried from it.
            for attempt in 1...10 {
                #expect(gate.intercept(try request(Self.client, "guess-\(minute)-\(attempt)")) != nil)
            }
            #expect(gate.intercept(try request(Self.client, "\(otherToken)"))?.status == .tooManyRequests,
                    "a right token never brought from this address is answered as a guess")
            let visit = try HTTPRequest(method: .get, target: "/?token=\(operatorToken)", headers: ["Host": "127.0.0.1:8080"], client: Self.client)
            #expect(gate.intercept(visit)?.status == .seeOther, "the accepted token opens the page by ?token= too")
            let beside = try HTTPRequest(method: .get, target: "/api/state?token=guess",
                                         headers: ["Host": "127.0.0.1:8080", "Authorization": "Bearer \(operatorToken)"], client: Self.client)
            #expect(gate.intercept(beside) == nil, "a wrong ?token= beside the accepted token refuses nothing")
        }
        #expect(gate.intercept(try request(Self.neighbour, "\(otherToken)")) == nil, "another address counts on its own")
    }
}
