import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Against the WebSocket servers of `Tests/support/websocket_servers.py` (websockets), started by
/// each test on free loopback ports.
@Suite("WebSocketSource")
struct WebSocketSourceTests {
    /// A source for `path` of the test server `name`, over wss:// for "tls" (trusting the test CA).
    static func source(_ name: String, of servers: ScriptServers, path: String = "/live", send message: String? = nil,
                       timeout: Duration = .seconds(5), conditions: [MessageCondition] = []) throws -> WebSocketSource {
        let scheme = name == "tls" ? "wss" : "ws"
        let host = name == "tls" ? "localhost" : "127.0.0.1"
        let url = try #require(URL(string: "\(scheme)://\(host):\(try servers.port(name))\(path)"))
        return WebSocketSource(url: url, message: message, timeout: timeout, conditions: conditions,
                               trustedRoots: servers.trustedRoots)
    }

    static func withServers<T>(_ body: (ScriptServers) async throws -> T) async throws -> T {
        try await ScriptServers.with("websocket_servers.py", body)
    }

    @Test func anAcceptedUpgradeIsUp() async throws {
        try await Self.withServers { servers in
            let info = try await Self.source("plain", of: servers).load()
            #expect(info.summary == "Upgrade accepted")
            #expect(info.fields?.map(\.label) == ["URL"])
            #expect(info.readings?.map(\.label) == ["Upgrade time"])
        }
    }

    @Test func theAnswerToTheMessageIsCheckedAndShown() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("plain", of: servers, send: "ping",
                                         conditions: [.message(.contains("pong")), .under(.seconds(4))])
            let info = try await source.load()
            #expect(info.summary == "Answered")
            #expect(info.fields?.last == Info.Field("Answer", "pong"))
            #expect(info.readings?.map(\.label) == ["Answer time"])
        }
    }

    @Test func aLongMessageTravelsInOneFrame() async throws {
        try await Self.withServers { servers in
            let text = String(repeating: "x", count: 70_000)
            let info = try await Self.source("plain", of: servers, send: text).load()
            #expect(info.fields?.last?.label == "Answer")
            #expect(info.fields?.last?.value.hasPrefix("echo: xxx") == true)
        }
    }

    @Test func wssVerifiesTheCertificate() async throws {
        try await Self.withServers { servers in
            let info = try await Self.source("tls", of: servers, send: "ping").load()
            #expect(info.fields?.last == Info.Field("Answer", "pong"))
            var untrusted = try Self.source("tls", of: servers, send: "ping")
            untrusted.trustedRoots = nil
            let error = try #require(await panelError { try await untrusted.load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.failureReason?.hasPrefix("localhost's certificate is not trusted: ") == true)
        }
    }

    @Test(arguments: [
        ("/forbidden", ErrorKind.unauthorized, "HTTP 403 Forbidden"),
        ("/missing", ErrorKind.notFound, "HTTP 404 Not Found"),
        ("/broken", ErrorKind.serverError, "HTTP 500 Internal Server Error"),
        ("/maintenance", ErrorKind.serverMaintenance, "HTTP 503 Service Unavailable"),
    ])
    func aRefusedUpgradeTellsTheStatus(_ path: String, _ kind: ErrorKind, _ status: String) async throws {
        try await Self.withServers { servers in
            let port = try servers.port("plain")
            let error = try #require(await panelError { try await Self.source("plain", of: servers, path: path).load() })
            #expect(error.kind == kind)
            #expect(error.failureReason == "127.0.0.1:\(port) refused the WebSocket upgrade: \(status).")
        }
    }

    @Test func anHTTPServerWithoutWebSocketsRefusesTheUpgrade() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("http")
            let error = try #require(await panelError { try await Self.source("http", of: servers).load() })
            #expect(error.kind == .invalidResponse)
            #expect(error.failureReason == "127.0.0.1:\(port) refused the WebSocket upgrade: HTTP 200 OK.")
        }
    }

    @Test func aWrongAcceptKeyIsAnInvalidResponse() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("wrongkey")
            let error = try #require(await panelError { try await Self.source("wrongkey", of: servers).load() })
            #expect(error.kind == .invalidResponse)
            #expect(error.failureReason == "127.0.0.1:\(port) accepted the upgrade with the wrong Sec-WebSocket-Accept.")
            #expect(error.detail?.hasSuffix(#"Sec-WebSocket-Accept "bm90IHRoZSByaWdodCBrZXk=""#) == true)
        }
    }

    @Test func anotherServiceIsNotHTTP() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("ssh")
            let error = try #require(await panelError { try await Self.source("ssh", of: servers).load() })
            #expect(error.kind == .invalidResponse)
            #expect(error.failureReason == "127.0.0.1:\(port) did not answer the upgrade in HTTP.")
            #expect(error.detail?.hasSuffix(": SSH-2.0-OpenSSH_9.2p1 Debian-2") == true)
        }
    }

    @Test func aWebSocketClosedBeforeAnsweringIsAnInvalidResponse() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("plain")
            let error = try #require(await panelError { try await Self.source("plain", of: servers, send: "bye").load() })
            #expect(error.kind == .invalidResponse)
            #expect(error.failureReason == "127.0.0.1:\(port) closed the WebSocket before answering.")
            #expect(error.detail?.hasSuffix(": closed with code 1001") == true)
        }
    }

    @Test func noAnswerToTheMessageIsATimeout() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("plain", of: servers, send: "silent", timeout: .seconds(1))
            let error = try #require(await panelError { try await source.load() })
            #expect(error.kind == .timeout)
            #expect(error.failureReason == "No answer to the message within 1 s.")
        }
    }

    @Test func noUpgradeAnswerIsATimeout() async throws {
        try await Self.withServers { servers in
            let error = try #require(await panelError { try await Self.source("silent", of: servers, timeout: .seconds(1)).load() })
            #expect(error.kind == .timeout)
            #expect(error.failureReason == "No answer within 1 s.")
        }
    }

    @Test func anAnswerFailingAConditionIsACheckFailed() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("plain", of: servers, send: "hello", conditions: [.message(.contains("pong"))])
            let error = try #require(await panelError { try await source.load() })
            #expect(error.kind == .checkFailed)
            #expect(error.failureReason == #"The answer is "echo: hello", expected it to contain "pong"."#)
        }
    }

    @Test func aSlowAnswerFailsUnder() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("plain", of: servers, send: "slow", conditions: [.under(.seconds(1))])
            let error = try #require(await panelError { try await source.load() })
            #expect(error.kind == .checkFailed)
            #expect(error.failureReason?.hasPrefix("Answered in 2") == true)
            #expect(error.failureReason?.hasSuffix(", expected under 1 s.") == true)
        }
    }

    @Test func nothingListeningIsUnreachable() async throws {
        let port = try closedLoopbackPort()
        let url = try #require(URL(string: "ws://127.0.0.1:\(port)/"))
        let error = try #require(await panelError { try await WebSocketSource(url: url, timeout: .seconds(5)).load() })
        #expect(error.kind == .unreachable)
        #expect(error.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func aCancelledCheckEndsAtOnce() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("plain", of: servers, send: "silent", timeout: .seconds(20))
            try await expectEndsAtOnceWhenCancelled { try await source.load() }
        }
    }
}
