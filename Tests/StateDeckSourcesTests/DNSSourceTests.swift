import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Against `Tests/support/fake_dns.py`, started by each test on a free loopback port.
@Suite("DNSSource")
struct DNSSourceTests {
    /// A source asking the test's server.
    static func source(_ name: String, _ type: DNSRecordType, of server: FakeDNSServer, expecting text: String? = nil,
                       timeout: Duration = .seconds(2)) throws -> DNSSource {
        let address = try #require(DNSServer(server.address))
        return DNSSource(name: name, type: type, server: address, expectedText: text, timeout: timeout)
    }

    @Test func anARecordListsEachAddress() async throws {
        try await FakeDNSServer.with { server in
            let info = try await Self.source("example.test", .a, of: server).load()
            #expect(info.summary == "2 A records")
            #expect(info.fields == [Info.Field("Name", "example.test"), Info.Field("Server", server.address)])
            #expect(info.items == [
                Info.Item(id: "a-1", title: "203.0.113.7"),
                Info.Item(id: "a-2", title: "203.0.113.8"),
            ])
        }
    }

    @Test func anAAAARecordIsAnIPv6Address() async throws {
        try await FakeDNSServer.with { server in
            let info = try await Self.source("example.test", .aaaa, of: server).load()
            #expect(info.summary == "1 AAAA record")
            #expect(info.items?.map(\.title) == ["2001:db8::7"])
        }
    }

    @Test func mxRecordsComeByPreference() async throws {
        try await FakeDNSServer.with { server in
            let info = try await Self.source("example.test", .mx, of: server).load()
            #expect(info.summary == "2 MX records")
            #expect(info.items?.map(\.title) == ["mail.example.test", "backup.example.test"])
            #expect(info.items?.map(\.subtitle) == ["preference 10", "preference 20"])
        }
    }

    @Test func aTXTRecordsStringsAreJoined() async throws {
        try await FakeDNSServer.with { server in
            let info = try await Self.source("example.test", .txt, of: server).load()
            #expect(info.items?.map(\.title) == ["hello", "v=spf1 mx -all"])
        }
    }

    @Test func nsRecordsAreNames() async throws {
        try await FakeDNSServer.with { server in
            let info = try await Self.source("example.test", .ns, of: server).load()
            #expect(info.items?.map(\.title) == ["ns1.example.test", "ns2.example.test"])
        }
    }

    @Test func aCNAMERecordNamesItsTargetAndAnAQueryGoesThroughIt() async throws {
        try await FakeDNSServer.with { server in
            let alias = try await Self.source("www.example.test", .cname, of: server).load()
            #expect(alias.items == [Info.Item(id: "cname-1", title: "example.test")])
            let addresses = try await Self.source("www.example.test", .a, of: server).load()
            #expect(addresses.items?.map(\.title) == ["203.0.113.7", "203.0.113.8"], "the CNAME left out")
        }
    }

    @Test func anIPv6ServerWithAPort() async throws {
        try await FakeDNSServer.with { server in
            try #require(server.hasIPv6, "the machine has no ::1")
            let ipv6 = try #require(DNSServer("[::1]:\(server.port)"))
            let info = try await DNSSource(name: "example.test", type: .a, server: ipv6).load()
            #expect(info.summary == "2 A records")
            #expect(info.fields?.last == Info.Field("Server", "[::1]:\(server.port)"))
        }
    }

    @Test func aNameThatDoesNotExistIsNoSuchName() async throws {
        try await FakeDNSServer.with { server in
            let error = await panelError { try await Self.source("nothing.example.test", .a, of: server).load() }
            #expect(error?.kind == .dnsNameNotFound)
            #expect(error?.title == "No such name")
            #expect(error?.failureReason == "nothing.example.test does not exist (NXDOMAIN).")
            #expect(error?.detail == "A nothing.example.test, asked of \(server.address)")
        }
    }

    @Test func serverFailureAndRefusalAreDNSServerFailures() async throws {
        try await FakeDNSServer.with { server in
            let failed = await panelError { try await Self.source("servfail.example.test", .a, of: server).load() }
            #expect(failed?.kind == .dnsServerFailure)
            #expect(failed?.failureReason == "The DNS server failed to answer for servfail.example.test (SERVFAIL).")
            let refused = await panelError { try await Self.source("refused.example.test", .mx, of: server).load() }
            #expect(refused?.kind == .dnsServerFailure)
            #expect(refused?.failureReason == "The DNS server refused to answer for refused.example.test (REFUSED).")
        }
    }

    @Test func aNameWithoutRecordsOfTheTypeIsNotFound() async throws {
        try await FakeDNSServer.with { server in
            let error = await panelError { try await Self.source("empty.example.test", .txt, of: server).load() }
            #expect(error?.kind == .notFound)
            #expect(error?.failureReason == "empty.example.test has no TXT records.")
        }
    }

    @Test func aServerThatNeverAnswersTimesOutOnTime() async throws {
        try await FakeDNSServer.with { server in
            let started = ContinuousClock.now
            let error = await panelError {
                try await Self.source("silent.example.test", .a, of: server, timeout: .seconds(1)).load()
            }
            let took = ContinuousClock.now - started
            #expect(error?.kind == .timeout)
            #expect(error?.failureReason == "No answer within 1 s.")
            #expect(took >= .milliseconds(900) && took < .seconds(2), "took \(took)")
        }
    }

    /// An answer that does not fit in UDP, truncated (the TC bit) or longer than 512 bytes, is
    /// asked again over TCP, where this server answers nothing: a card of its own, not "No DNS
    /// server answers", for a server that did answer.
    @Test(arguments: ["truncated.example.test", "oversized.example.test"])
    func anAnswerTooLargeForUDPWithoutTCPIsItsOwnCard(name: String) async throws {
        try await FakeDNSServer.with { server in
            let error = await panelError { try await Self.source(name, .a, of: server).load() }
            #expect(error?.kind == .dnsAnswerTooLarge)
            #expect(error?.title == "DNS answer too large")
            #expect(error?.failureReason == "The answer for \(name) is too large for one UDP message, and the DNS server at "
                + "\(server.address) does not give it over TCP.")
            #expect(error?.recoverySuggestion == "Let the server answer DNS over TCP on its port (a firewall may block it), "
                + "or ask for a name with fewer records.")
            #expect(error?.detail == "A \(name), asked of \(server.address): too large for UDP; over TCP, nothing answers DNS "
                + "there (connection refused)")
            let card = ErrorPresenter().card(for: try #require(error))
            #expect(card.options.map(\.id) == ["try-again", "cancel"])
            #expect(card.options.first?.role == .secondary, "a retry alone does not make the answer fit")
        }
    }

    @Test func aPortWhereNothingListensIsUnreachable() async throws {
        let port = try LoopbackListener.closedPort()
        let server = try #require(DNSServer("127.0.0.1:\(port)"))
        let error = await panelError { try await DNSSource(name: "example.test", type: .a, server: server).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "No DNS server answers at 127.0.0.1:\(port).")
    }

    @Test func anExpectationIsMetByAnyRecord() async throws {
        try await FakeDNSServer.with { server in
            let info = try await Self.source("example.test", .a, of: server, expecting: "203.0.113.8").load()
            #expect(info.summary == "2 A records")
        }
    }

    @Test func anUnmetExpectationNamesWhatCameBack() async throws {
        try await FakeDNSServer.with { server in
            let error = await panelError {
                try await Self.source("example.test", .a, of: server, expecting: "198.51.100.1").load()
            }
            #expect(error?.kind == .checkFailed)
            #expect(error?.failureReason == #"No A record of example.test contains "198.51.100.1": the answer was 203.0.113.7, 203.0.113.8."#)
        }
    }

    /// Queries block their own threads, never the shared pool: while slow ones wait for a server
    /// that does not answer, a quick query and another panel's load still end at once.
    @Test func aSlowQueryDoesNotHoldUpOtherPanels() async throws {
        try await FakeDNSServer.with { server in
            let slow = try Self.source("silent.example.test", .a, of: server, timeout: .seconds(3))
            try await withThrowingTaskGroup(of: ErrorKind?.self) { group in
                for _ in 1..<DNSQueries.limit {
                    group.addTask { await panelError { try await slow.load() }?.kind }
                }
                try await Task.sleep(for: .milliseconds(200))
                let started = ContinuousClock.now
                let quick = try await Self.source("example.test", .mx, of: server).load()
                let folder = try TemporaryFolder()
                let file = try await FileSource(path: try folder.write("up", to: "status.txt"), format: .text).load()
                #expect(ContinuousClock.now - started < .seconds(1))
                #expect(quick.summary == "2 MX records")
                #expect(file.text == "up")
                let kinds = try await group.reduce(into: [ErrorKind?]()) { $0.append($1) }
                #expect(kinds == Array(repeating: .timeout, count: DNSQueries.limit - 1))
            }
        }
    }

    @Test func aServerIsAnIPAddressWithAnOptionalPort() {
        #expect(DNSServer("203.0.113.53")?.description == "203.0.113.53:53")
        #expect(DNSServer("203.0.113.53:5353")?.port == 5353)
        #expect(DNSServer("2001:db8::53")?.description == "[2001:db8::53]:53")
        #expect(DNSServer("[2001:db8::53]:5353")?.description == "[2001:db8::53]:5353")
        for text in ["dns.example", "203.0.113.53:", "203.0.113.53:0", "[2001:db8::53]x", "203.0.113.300"] {
            #expect(DNSServer(text) == nil, "\(text)")
        }
    }

    @Test func aDeckFileReadsEveryKey() throws {
        let deck = try DeckFile.parse("""
            defaults: { timeout: 3s }
            panels:
              - id: mail
                dns: { name: example.com, type: MX, server: "[2001:db8::53]:5353", expect: { contains: mail } }
              - id: site
                dns: { name: example.com, type: AAAA, timeout: 1s }
            """, file: "deck.yaml", folder: "/stack", environment: [:])
        let mail = try #require(deck.panels[0].source.dns)
        #expect(mail == DNSSource(name: "example.com", type: .mx, server: DNSServer("[2001:db8::53]:5353"),
                                  expectedText: "mail", timeout: .seconds(3)))
        let site = try #require(deck.panels[1].source.dns)
        #expect(site.server == nil && site.expectedText == nil && site.timeout == .seconds(1))
        #expect(deck.panels[1].source.kind == "dns")
    }
}
