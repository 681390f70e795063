import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Against `RDAPTestServer`, an RDAP service of the tests' own on loopback: its bootstrap file
/// and domain objects as RFC 9224 and RFC 9083 write them, 404 for a domain it does not have.
/// Every card a domain panel can show is reached here.
@Suite("DomainSource")
struct DomainSourceTests {
    static let day: TimeInterval = 86_400

    /// "27 December", the UTC day `interval` from now.
    static func dayAndMonth(in interval: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMMM"
        return formatter.string(from: Date().addingTimeInterval(interval))
    }

    @Test func aRegisteredDomainTellsItsDaysLeftRegistrarAndStatus() async throws {
        let rdap = try RDAPTestServer()
        rdap.register("example.test", expiresIn: 143 * Self.day + 3600)
        let info = try await rdap.source("example.test").load()
        #expect(info.summary == "Registered for 143 more days")
        #expect(info.fields?.map(\.label) == ["Registrar", "Expires", "Status"])
        #expect(info.fields?.first?.value == "Example Registrar, Inc.")
        #expect(info.fields?[1].value.hasPrefix(Self.dayAndMonth(in: 143 * Self.day + 3600)) == true)
        #expect(info.fields?.last?.value == "client delete prohibited, client transfer prohibited")
        let asked = try #require(rdap.server.requests.last)
        #expect(asked.hasPrefix("GET /rdap/domain/example.test HTTP/1.1"))
        #expect(asked.lowercased().contains("accept: application/rdap+json"))
    }

    @Test func twoChecksGiveTheSameInfoAndFetchTheBootstrapFileOnce() async throws {
        let rdap = try RDAPTestServer()
        rdap.register("example.test", expiresIn: 90 * Self.day)
        let source = rdap.source("example.test")
        let first = try await source.load()
        let second = try await source.load()
        #expect(first == second)
        #expect(rdap.server.requestCount("/dns.json") == 1)
    }

    @Test func aDomainWithoutExpiryOrRegistrarStillLoads() async throws {
        let rdap = try RDAPTestServer()
        rdap.register("quiet.example", expiresIn: nil, registrar: nil, status: ["active"])
        let info = try await rdap.source("quiet.example").load()
        #expect(info.summary == "Registered; the registry publishes no expiry date")
        #expect(info.fields == [Info.Field("Status", "active")])
    }

    @Test func aRegistrationExpiringWithinWarnBeforeIsTheExpiringCard() async throws {
        let rdap = try RDAPTestServer()
        rdap.register("soon.test", expiresIn: 21 * Self.day + 3600)
        let error = try #require(await panelError { try await rdap.source("soon.test").load() })
        #expect(error.kind == .domainExpiring)
        #expect(error.title == "Domain expires soon")
        #expect(error.failureReason == "soon.test's registration expires in 21 days, on \(Self.dayAndMonth(in: 21 * Self.day + 3600)).")
        #expect(error.recoverySuggestion == "Renew it with Example Registrar, Inc. before then, or turn its automatic renewal on.")
        #expect(error.detail?.hasPrefix("GET \(rdap.server.url("/rdap/domain/soon.test").absoluteString): expiration ") == true)
        let later = try await rdap.source("soon.test", warnBefore: .seconds(7 * 86_400)).load()
        #expect(later.summary == "Registered for 21 more days", "a shorter warnBefore does not warn yet")
    }

    @Test func aRegistrationEndingWithinADaySaysSo() async throws {
        let rdap = try RDAPTestServer()
        rdap.register("today.test", expiresIn: 3600)
        let error = try #require(await panelError { try await rdap.source("today.test").load() })
        #expect(error.failureReason == "today.test's registration expires within a day, on \(Self.dayAndMonth(in: 3600)).")
    }

    @Test func anExpiredRegistrationIsTheExpiredCard() async throws {
        let rdap = try RDAPTestServer()
        rdap.register("gone.test", expiresIn: -10 * Self.day, registrar: nil)
        let error = try #require(await panelError { try await rdap.source("gone.test").load() })
        #expect(error.kind == .domainExpired)
        #expect(error.title == "Domain expired")
        #expect(error.failureReason?.hasPrefix("gone.test's registration expired on \(Self.dayAndMonth(in: -10 * Self.day)) ") == true)
        #expect(error.recoverySuggestion == "Renew it with its registrar now: once the registry's grace period ends, anyone may register it.")
    }

    @Test func aDomainTheRegistryDoesNotHaveIsNotRegistered() async throws {
        let rdap = try RDAPTestServer()
        let error = try #require(await panelError { try await rdap.source("free.test").load() })
        #expect(error.kind == .domainNotRegistered)
        #expect(error.title == "Domain not registered")
        #expect(error.failureReason == "The registry's RDAP server has no domain free.test.")
        #expect(error.detail == "GET \(rdap.server.url("/rdap/domain/free.test").absoluteString): 404")
    }

    @Test func aTopLevelDomainWithoutAnRDAPServerSaysSo() async throws {
        let rdap = try RDAPTestServer()
        let error = try #require(await panelError { try await rdap.source("example.nowhere").load() })
        #expect(error.kind == .noRDAPServer)
        #expect(error.title == "No registration data")
        #expect(error.failureReason == "No RDAP server is known for .nowhere domains, so example.nowhere's registration can't be checked.")
        #expect(error.recoverySuggestion == "If the registry of .nowhere runs one, give its base URL as the panel's server.")
    }

    @Test func aFailingRDAPServerIsAServerErrorAndIsRetried() async throws {
        let rdap = try RDAPTestServer()
        rdap.server.answer(rdap.domainPath("busy.test"), with: RDAPTestServer.json(#"{"errorCode": 503}"#, status: 503))
        let error = try #require(await panelError { try await rdap.source("busy.test").load() })
        #expect(error.kind == .serverError)
        #expect(error.kind.isRetryable)
        #expect(error.failureReason == "The RDAP server 127.0.0.1 answered 503.")
    }

    @Test func anAnswerThatIsNoDomainObjectIsInvalid() async throws {
        let rdap = try RDAPTestServer()
        rdap.server.answer(rdap.domainPath("odd.test"), with: RDAPTestServer.json("<html>hello</html>"))
        let error = try #require(await panelError { try await rdap.source("odd.test").load() })
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "The RDAP server 127.0.0.1's answer is not an RDAP domain object.")
    }

    @Test func anExpirationThatIsNoTimeIsInvalid() async throws {
        let rdap = try RDAPTestServer()
        let body = RDAPTestServer.domain("odd.test", expiry: nil, registrar: nil, status: [])
            .replacingOccurrences(of: #""eventAction": "registration", "eventDate": "1997-09-15T04:00:00Z""#,
                                  with: #""eventAction": "expiration", "eventDate": "next year""#)
        rdap.server.answer(rdap.domainPath("odd.test"), with: RDAPTestServer.json(body))
        let error = try #require(await panelError { try await rdap.source("odd.test").load() })
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "The RDAP server 127.0.0.1's expiration date \"next year\" is not a time.")
    }

    @Test func aSlowRDAPServerTimesOut() async throws {
        let rdap = try RDAPTestServer()
        rdap.server.answer(rdap.domainPath("slow.test"), with: RDAPTestServer.json("{}", delay: .seconds(3)))
        let error = try #require(await panelError { try await rdap.source("slow.test", timeout: .milliseconds(500)).load() })
        #expect(error.kind == .timeout)
        #expect(error.failureReason == "No answer within 500 ms.")
    }

    @Test func nothingListeningAtTheBootstrapURLIsUnreachable() async throws {
        let port = try LoopbackListener.closedPort()
        var source = DomainSource(name: "example.test", timeout: .seconds(2))
        source.bootstrapURL = try #require(URL(string: "http://127.0.0.1:\(port)/dns.json"))
        let error = try #require(await panelError { try await source.load() })
        #expect(error.kind == .unreachable)
        #expect(error.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func aBootstrapFileThatIsNoneIsInvalid() async throws {
        let rdap = try RDAPTestServer()
        rdap.server.answer("/dns.json", with: RDAPTestServer.json(#"{"services": "all of them"}"#))
        let error = try #require(await panelError { try await rdap.source("example.test").load() })
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "The list of RDAP servers at \(rdap.bootstrapURL.absoluteString) is not an RDAP bootstrap file (RFC 9224).")
    }

    @Test func aServerGivenSkipsTheBootstrapFile() async throws {
        let rdap = try RDAPTestServer()
        rdap.register("example.test", expiresIn: 100 * Self.day + 3600)
        var source = DomainSource(name: "example.test", server: rdap.server.url("/rdap/"), timeout: .seconds(5))
        source.bootstrapURL = try #require(URL(string: "http://127.0.0.1:\(try LoopbackListener.closedPort())/dns.json"))
        #expect(try await source.load().summary == "Registered for 100 more days")
        #expect(rdap.server.requestCount("/dns.json") == 0)
    }

    @Test func theBootstrapFileIsFetchedAgainADayLaterAndAFailedFetchKeepsTheCopy() async throws {
        let rdap = try RDAPTestServer()
        let cache = RDAPBootstrapCache()
        let url = rdap.bootstrapURL
        let start = Date()
        let (first, took) = try await cache.bootstrap(from: url, timeout: .seconds(5), now: start)
        #expect(took > .zero)
        #expect(try await cache.bootstrap(from: url, timeout: .seconds(5), now: start.addingTimeInterval(Self.day - 60)).took == .zero)
        #expect(rdap.server.requestCount("/dns.json") == 1, "a copy younger than a day serves")
        rdap.server.answer("/dns.json", with: RDAPTestServer.json("", status: 500))
        let due = try await cache.bootstrap(from: url, timeout: .seconds(5), now: start.addingTimeInterval(Self.day))
        #expect(due.bootstrap == first && due.took == .zero, "a copy that is due serves while the next is fetched")
        await cache.settle(url)
        #expect(rdap.server.requestCount("/dns.json") == 2)
        #expect(try await cache.bootstrap(from: url, timeout: .seconds(5), now: start.addingTimeInterval(Self.day + 1800)).bootstrap == first)
        await cache.settle(url)
        #expect(rdap.server.requestCount("/dns.json") == 2, "after a failed fetch, the next try waits an hour")
        rdap.server.answer("/dns.json", with: RDAPTestServer.json(RDAPTestServer.bootstrap(base: "https://rdap.other.test")))
        _ = try await cache.bootstrap(from: url, timeout: .seconds(5), now: start.addingTimeInterval(Self.day + 3600))
        await cache.settle(url)
        let renewed = try await cache.bootstrap(from: url, timeout: .seconds(5), now: start.addingTimeInterval(Self.day + 3601))
        #expect(renewed.bootstrap.server(for: "example.test")?.absoluteString == "https://rdap.other.test/")
        #expect(rdap.server.requestCount("/dns.json") == 3)
    }

    @Test func aFailedFetchWithoutACopyFailsTheCheck() async throws {
        let rdap = try RDAPTestServer()
        rdap.server.answer("/dns.json", with: RDAPTestServer.json("", status: 502))
        let error = try #require(await panelError { try await rdap.source("example.test").load() })
        #expect(error.kind == .serverError)
        #expect(error.failureReason == "The list of RDAP servers at \(rdap.bootstrapURL.absoluteString) answered 502.")
    }

    @Test func theLongestEntryAndAnHTTPSServerWin() throws {
        let file = #"{"services": [[["uk"], ["https://rdap.uk.test/"]], [["co.uk"], ["http://rdap.co.test", "https://rdap.co.test"]]]}"#
        let bootstrap = try #require(RDAPBootstrap(parsing: Array(file.utf8)))
        #expect(bootstrap.server(for: "example.co.uk")?.absoluteString == "https://rdap.co.test/")
        #expect(bootstrap.server(for: "example.uk")?.absoluteString == "https://rdap.uk.test/")
        #expect(bootstrap.server(for: "example.fr") == nil)
    }
}

/// A domain panel as a deck file writes it: every key, and each bad value refused naming its
/// key and line.
@Suite("DeckFile domain")
struct DeckFileDomainTests {
    @Test func readsItsKeys() throws {
        let deck = try DeckFile.parse("""
            panels:
              - id: site-domain
                domain: { name: Example.COM., warnBefore: 14d, server: "https://rdap.example.net/rdap", timeout: 3s }
            """, file: "deck.yaml", folder: "/stack", environment: [:])
        let source = try #require(deck.panels.first?.source.domain)
        #expect(source == DomainSource(name: "example.com", warnBefore: .seconds(14 * 86_400),
                                       server: URL(string: "https://rdap.example.net/rdap/"), timeout: .seconds(3)))
        #expect(source.bootstrapURL == RDAPBootstrap.ianaURL)
    }

    @Test func warnsThirtyDaysAheadAndAsksIANAByDefault() throws {
        let deck = try DeckFile.parse("panels: [{ id: site, domain: { name: example.org } }]", file: "deck.yaml", folder: "/stack",
                                      environment: [:])
        #expect(deck.panels.first?.source.domain == DomainSource(name: "example.org", timeout: .seconds(10)))
        #expect(deck.panels.first?.source.kind == "domain")
    }

    @Test(arguments: [
        ("domain: { warnBefore: 14d }", "deck.yaml:1: panels[0].domain.name: is required"),
        ("domain: { name: example.com, warnbefore: 14d }", "deck.yaml:1: panels[0].domain.warnbefore: unknown key; did you mean warnBefore?"),
        ("domain: { name: exa mple.com }", #"deck.yaml:1: panels[0].domain.name: "exa mple.com" is not a domain name: labels of letters, digits and dashes, like example.com"#),
        ("domain: { name: -example.com }", #"deck.yaml:1: panels[0].domain.name: "-example.com" is not a domain name: labels of letters, digits and dashes, like example.com"#),
        ("domain: { name: example..com }", #"deck.yaml:1: panels[0].domain.name: "example..com" is not a domain name: labels of letters, digits and dashes, like example.com"#),
        ("domain: { name: com }", #"deck.yaml:1: panels[0].domain.name: "com" is a top-level domain, not a registered one like example.com"#),
        ("domain: { name: bücher.de }", #"deck.yaml:1: panels[0].domain.name: "bücher.de" is not an ASCII domain name: write an internationalized one in its xn-- form"#),
        ("domain: { name: example.com, warnBefore: soon }", #"deck.yaml:1: panels[0].domain.warnBefore: "soon" is not a duration; write it like 500ms, 5s, 2m, 1h or 7d"#),
        ("domain: { name: example.com, server: rdap.example.net }", "deck.yaml:1: panels[0].domain.server: must be an http or https URL"),
        ("domain: { name: example.com, server: \"https://rdap.example.net/?q=1\" }", "deck.yaml:1: panels[0].domain.server: must be an RDAP server's base URL, without a query, like https://rdap.example.net/"),
        ("domain: { name: example.com, timeout: 0s }", "deck.yaml:1: panels[0].domain.timeout: must be at least 1 ms"),
        ("domain: example.com", "deck.yaml:1: panels[0].domain: must be a mapping of keys to values"),
    ])
    func refusesABadValueNamingItsKeyAndLine(source: String, problem: String) {
        #expect(deckFileProblems("panels: [{ id: site, \(source) }]") == [problem])
    }
}
