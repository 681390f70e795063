import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Against the SMTP servers of `Tests/support/smtp_servers.py` (aiosmtpd), started by each test
/// on free loopback ports with the certificates of tls_servers.py.
@Suite("SMTPSource")
struct SMTPSourceTests {
    /// A source checking the test server `name`, trusting the test CA.
    static func source(_ name: String, of servers: ScriptServers, startsTLS: Bool = true,
                       timeout: Duration = .seconds(5)) throws -> SMTPSource {
        SMTPSource(host: "localhost", port: try servers.port(name), startsTLS: startsTLS, timeout: timeout,
                   trustedRoots: servers.trustedRoots)
    }

    static func withServers<T>(_ body: (ScriptServers) async throws -> T) async throws -> T {
        try await ScriptServers.with("smtp_servers.py", body)
    }

    @Test func aServerWithATrustedCertificateIsReady() async throws {
        try await Self.withServers { servers in
            let info = try await Self.source("trusted", of: servers).load()
            #expect(info.summary == "Ready, certificate valid for 60 more days")
            #expect(info.fields?.map(\.label) == ["Server", "Size limit", "STARTTLS", "Authentication", "Expires"])
            #expect(info.fields?[0].value == "mail.test StateDeck Test SMTP")
            #expect(info.fields?[1].value == "32 MiB")
            #expect(info.fields?[2].value == "Yes")
            #expect(info.fields?[3].value == "LOGIN PLAIN", "offered after STARTTLS only")
        }
    }

    @Test func twoChecksGiveTheSameInfo() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("trusted", of: servers)
            let first = try await source.load()
            let second = try await source.load()
            #expect(first == second)
        }
    }

    @Test func withoutStartTLSTheSessionIsPlain() async throws {
        try await Self.withServers { servers in
            let info = try await Self.source("plain", of: servers, startsTLS: false).load()
            #expect(info.summary == "Ready")
            #expect(info.fields?.map(\.label) == ["Server", "Size limit", "STARTTLS", "Authentication"])
            #expect(info.fields?[2].value == "No")
            #expect(info.fields?[3].value == "Not offered")
        }
    }

    @Test func startTLSNotOfferedIsACheckFailed() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("plain")
            let error = try #require(await panelError { try await Self.source("plain", of: servers).load() })
            #expect(error.kind == .checkFailed)
            #expect(error.failureReason == "localhost:\(port) does not offer STARTTLS.")
            #expect(error.detail == "localhost:\(port): EHLO lists 8BITMIME, HELP, SIZE")
        }
    }

    @Test func startTLSRefusedIsACheckFailed() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("denying")
            let error = try #require(await panelError { try await Self.source("denying", of: servers).load() })
            #expect(error.kind == .checkFailed)
            #expect(error.failureReason == "localhost:\(port) refused STARTTLS: 454 4.7.0 TLS not available due to temporary reason")
        }
    }

    @Test func aCertificateExpiringWithinValidForIsTheExpiringCard() async throws {
        try await Self.withServers { servers in
            let error = try #require(await panelError { try await Self.source("expiring", of: servers).load() })
            #expect(error.kind == .certificateExpiring)
            let reason = try #require(error.failureReason)
            #expect(reason.hasPrefix("localhost's certificate expires in 5 days, on "))
        }
    }

    @Test(arguments: [
        ("expired", "localhost's certificate is not trusted: it expired on 1 February."),
        ("self", "localhost's certificate is not trusted: it is self-signed."),
        ("other", "localhost's certificate is not trusted: it is for other.example.test, not localhost."),
    ])
    func anUntrustedCertificateIsTheUntrustedCard(_ name: String, _ reason: String) async throws {
        try await Self.withServers { servers in
            let error = try #require(await panelError { try await Self.source(name, of: servers).load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.failureReason == reason)
        }
    }

    @Test func theSystemRootsDoNotTrustTheTestCA() async throws {
        try await Self.withServers { servers in
            let source = SMTPSource(host: "localhost", port: try servers.port("trusted"), timeout: .seconds(5))
            let error = try #require(await panelError { try await source.load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.failureReason == "localhost's certificate is not trusted: its issuer is not trusted.")
        }
    }

    @Test(arguments: [
        ("busy", "turns sessions away for now: 421 mail.test Too many connections, try again later"),
        ("refusing", "refuses SMTP sessions: 554 mail.test No SMTP service here"),
    ])
    func aRefusingGreetingIsAServerError(_ name: String, _ reason: String) async throws {
        try await Self.withServers { servers in
            let port = try servers.port(name)
            let error = try #require(await panelError { try await Self.source(name, of: servers).load() })
            #expect(error.kind == .serverError)
            #expect(error.failureReason == "localhost:\(port) \(reason)")
        }
    }

    @Test func anotherServiceIsNotAnSMTPServer() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("ssh")
            let started = ContinuousClock.now
            let error = try #require(await panelError { try await Self.source("ssh", of: servers).load() })
            #expect(error.kind == .invalidResponse)
            #expect(error.failureReason == #"localhost:\#(port) is not an SMTP server: it greets with "SSH-2.0-OpenSSH_9.2p1 Debian-2"."#)
            #expect(ContinuousClock.now - started < .seconds(4), "told at its first line, not at the timeout")
        }
    }

    @Test func aSilentServerTimesOut() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("silent", of: servers, timeout: .seconds(1))
            let error = try #require(await panelError { try await source.load() })
            #expect(error.kind == .timeout)
            #expect(error.failureReason == "No answer within 1 s.")
        }
    }

    @Test func nothingListeningIsUnreachable() async throws {
        let port = try closedLoopbackPort()
        let error = try #require(await panelError { try await SMTPSource(host: "127.0.0.1", port: port, timeout: .seconds(5)).load() })
        #expect(error.kind == .unreachable)
        #expect(error.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func anUnknownHostIsUnreachable() async throws {
        let error = try #require(await panelError { try await SMTPSource(host: "mail.invalid", timeout: .seconds(5)).load() })
        #expect(error.kind == .unreachable)
        #expect(error.failureReason == "The name mail.invalid does not resolve.")
    }

    @Test func aCancelledCheckEndsAtOnce() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("silent", of: servers, timeout: .seconds(20))
            try await expectEndsAtOnceWhenCancelled { try await source.load() }
        }
    }
}
