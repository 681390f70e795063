import MicroHTTP
import Testing
@testable import StateDeckServer

/// The token in `Authorization`, without sockets: the gate asked directly. The scheme is
/// case-insensitive and may be followed by several spaces or tabs; the token after them must be
/// the whole rest of the value.
@Suite struct RequestGateBearerTests {
    static let port = 8080
    static let token = AccessToken.generate()
    static let cookie = "\(AccessToken.cookieName(port: port))=\(token)"

    /// A gate that asks for `token`, bound to `port`.
    private static func gate() -> RequestGate {
        let gate = RequestGate(configuredHost: "127.0.0.1", access: AccessList(token: token))
        gate.bind(port: port)
        return gate
    }

    /// The gate's answer to `GET /api/state` with these headers besides `Host`: nil lets it through.
    private static func answer(_ headers: [(String, String)]) throws -> HTTPResponse? {
        var fields: HTTPHeaders = ["Host": "127.0.0.1:\(port)"]
        for (name, value) in headers {
            fields.add(name, value)
        }
        return gate().intercept(try HTTPRequest(method: .get, target: "/api/state", headers: fields))
    }

    @Test("The Bearer scheme in any case, then spaces or tabs, then the token, lets the request through", arguments: [
        "Bearer \(token)", "bearer \(token)", "BEARER \(token)", "BeArEr \(token)",
        "Bearer  \(token)", "Bearer\t\(token)", "bearer \t \t\(token)",
    ])
    func acceptedSpellings(authorization: String) throws {
        #expect(try Self.answer([("Authorization", authorization)]) == nil)
    }

    @Test("Anything but the whole token after the scheme is refused", arguments: [
        "Bearer \(token) ", "Bearer \(token)\t", "Bearer \(token)x", "Bearer \(token) \(token)", "Bearer \(token.description.dropLast())",
        "Bearer \(token.description.uppercased())", "Bearer ", "Bearer", "Bearer \t ", "Bearer,\(token)", "Bearer=\(token)",
        "Bearerx \(token)", "Bear \(token)", "Basic \(token)", "\(token)", " Bearer \(token)",
    ])
    func refusedValues(authorization: String) throws {
        let refusal = try #require(try Self.answer([("Authorization", authorization)]))
        #expect(refusal.status == .forbidden)
    }

    @Test("A Bearer header decides alone, in any case: the cookie beside it is not looked at", arguments: [
        "Bearer wrong", "bearer wrong", "BEARER  wrong", "bearer",
    ])
    func bearerDecidesAlone(authorization: String) throws {
        let refusal = try #require(try Self.answer([("Authorization", authorization), ("Cookie", Self.cookie)]))
        #expect(refusal.status == .forbidden)
    }

    @Test("Another scheme leaves the decision to the cookie", arguments: ["Basic \(token)", "Bearerx \(token)", "Token \(token)"])
    func otherSchemesFallBackToTheCookie(authorization: String) throws {
        #expect(try Self.answer([("Authorization", authorization), ("Cookie", Self.cookie)]) == nil)
        #expect(try Self.answer([("Authorization", authorization)])?.status == .forbidden)
    }
}
