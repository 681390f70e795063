import Foundation
import HTTPClient
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Against the HTTPS servers of `Tests/support/tls_servers.py`, started by each test on free
/// loopback ports with certificates made by openssl in a temporary folder.
@Suite("TLSSource")
struct TLSSourceTests {
    /// A source checking the test server `name`, trusting the test CA.
    static func source(_ name: String, of servers: TLSServers, host: String = "localhost",
                       serverName: String? = nil) throws -> TLSSource {
        TLSSource(host: host, port: try servers.port(name), serverName: serverName, timeout: .seconds(5),
                  trustedRoots: servers.trustedRoots)
    }

    @Test func aTrustedCertificateTellsItsDaysLeft() async throws {
        try await TLSServers.with { servers in
            let info = try await Self.source("trusted", of: servers).load()
            #expect(info.summary == "Valid for 60 more days")
            #expect(info.fields?.map(\.label) == ["Subject", "Issuer", "Expires", "Trusted"])
            #expect(info.fields?.first?.value == "CN = localhost")
            #expect(info.fields?[1].value == "CN = StateDeck Test CA")
            #expect(info.fields?.last?.value == "Yes")
        }
    }

    @Test func twoChecksGiveTheSameInfo() async throws {
        try await TLSServers.with { servers in
            let source = try Self.source("trusted", of: servers)
            let first = try await source.load()
            let second = try await source.load()
            #expect(first == second)
        }
    }

    @Test func aCertificateExpiringWithinValidForIsTheExpiringCard() async throws {
        try await TLSServers.with { servers in
            let error = try #require(await panelError { try await Self.source("expiring", of: servers).load() })
            #expect(error.kind == .certificateExpiring)
            #expect(error.title == "Certificate expires soon")
            let reason = try #require(error.failureReason)
            #expect(reason.hasPrefix("localhost's certificate expires in 5 days, on "))
        }
    }

    @Test func anExpiredCertificateIsNotTrusted() async throws {
        try await TLSServers.with { servers in
            let error = try #require(await panelError { try await Self.source("expired", of: servers).load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.title == "Certificate not trusted")
            #expect(error.failureReason == "localhost's certificate is not trusted: it expired on 1 February.")
            #expect(error.detail?.contains("certificate has expired") == true)
        }
    }

    @Test func aSelfSignedCertificateIsNotTrusted() async throws {
        try await TLSServers.with { servers in
            let error = try #require(await panelError { try await Self.source("self", of: servers).load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.failureReason == "localhost's certificate is not trusted: it is self-signed.")
            #expect(error.detail?.contains("self-signed certificate") == true)
        }
    }

    @Test func theSystemRootsDoNotTrustTheTestCA() async throws {
        try await TLSServers.with { servers in
            let source = TLSSource(host: "localhost", port: try servers.port("trusted"), timeout: .seconds(5))
            let error = try #require(await panelError { try await source.load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.failureReason == "localhost's certificate is not trusted: its issuer is not trusted.")
        }
    }

    @Test func aCertificateForAnotherNameIsNotTrusted() async throws {
        try await TLSServers.with { servers in
            let error = try #require(await panelError { try await Self.source("other", of: servers).load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.failureReason == "localhost's certificate is not trusted: it is for other.example.test, not localhost.")
        }
    }

    @Test func theServerNameIsSentAndChecked() async throws {
        try await TLSServers.with { servers in
            let source = try Self.source("other", of: servers, host: "127.0.0.1", serverName: "other.example.test")
            let info = try await source.load()
            #expect(info.fields?.first?.value == "CN = other.example.test")
        }
    }

    @Test func nothingListeningIsUnreachable() async throws {
        let port = Int(try LoopbackListener.closedPort())
        let source = TLSSource(host: "127.0.0.1", port: port, timeout: .seconds(2))
        let error = try #require(await panelError { try await source.load() })
        #expect(error.kind == .unreachable)
        #expect(error.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func aServerThatNeverHandshakesTimesOut() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let source = TLSSource(host: "127.0.0.1", port: Int(port), timeout: .milliseconds(500))
        let error = try #require(await panelError { try await source.load() })
        #expect(error.kind == .timeout)
    }

    @Test func aServerWithoutTLSRefusesTheHandshake() async throws {
        try await TLSServers.with { servers in
            let error = try #require(await panelError { try await Self.source("plain", of: servers).load() })
            #expect(error.kind == .unreachable)
            #expect(error.failureReason == "localhost:\(try servers.port("plain")) refused the TLS handshake.")
        }
    }

    @Test func readsItsKeys() throws {
        let folder = try TemporaryFolder()
        let deck = try DeckFile.parse("""
            panels:
              - id: certificate
                title: Certificate
                tls: { host: api.example.com, servername: www.example.com, validFor: 30d, timeout: 3s, trustedRoots: ca.pem }
            """, file: "deck.yaml", folder: folder.path)
        let source = try #require(deck.panels.first?.source.tls)
        #expect(source == TLSSource(host: "api.example.com", serverName: "www.example.com", validFor: .seconds(30 * 86_400),
                                    timeout: .seconds(3), trustedRoots: folder.path("ca.pem")))
    }
}

/// http panels on https: the days their certificate has left, and the `certificate` condition.
@Suite("HTTPSource certificate")
struct HTTPSourceCertificateTests {
    static func source(_ name: String, of servers: TLSServers, conditions: [ResponseCondition] = []) throws -> HTTPSource {
        let url = try #require(URL(string: "https://localhost:\(try servers.port(name))/"))
        var source = HTTPSource(url: url, timeout: .seconds(5), conditions: conditions)
        source.trustedRoots = servers.trustedRoots
        return source
    }

    @Test func anHTTPSPanelShowsTheDaysLeft() async throws {
        try await TLSServers.with { servers in
            let source = try Self.source("trusted", of: servers)
            let first = try await source.load()
            #expect(first.fields?.prefix(2) == [Info.Field("Status", "200"), Info.Field("Certificate", "valid 60 more days")])
            let again = try await source.load()
            #expect(again == first, "a reused connection shows the certificate read before")
        }
    }

    @Test func theCertificateConditionPasses() async throws {
        try await TLSServers.with { servers in
            let source = try Self.source("expiring", of: servers, conditions: [.certificate(validFor: .seconds(3 * 86_400))])
            let info = try await source.load()
            #expect(info.summary == "HTTP 200")
        }
    }

    @Test func aFailedCertificateConditionIsTheExpiringCard() async throws {
        try await TLSServers.with { servers in
            let source = try Self.source("expiring", of: servers, conditions: [.certificate(validFor: .seconds(14 * 86_400))])
            let error = try #require(await panelError { try await source.load() })
            #expect(error.kind == .certificateExpiring)
            #expect(error.failureReason?.hasPrefix("localhost's certificate expires in 5 days, on ") == true)
        }
    }

    @Test func anUntrustedCertificateIsTheUntrustedCard() async throws {
        try await TLSServers.with { servers in
            let error = try #require(await panelError { try await Self.source("self", of: servers).load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.failureReason == "localhost's certificate is not trusted: it is self-signed.")
        }
    }

    @Test func theConditionIsRead() throws {
        let folder = try TemporaryFolder()
        let deck = try DeckFile.parse("""
            panels:
              - id: api
                http: { url: "https://api.example.com/", expect: [{ certificate: { validFor: 21d } }] }
            """, file: "deck.yaml", folder: folder.path)
        let source = try #require(deck.panels.first?.source.http)
        #expect(source.conditions == [.certificate(validFor: .seconds(21 * 86_400))])
    }
}
