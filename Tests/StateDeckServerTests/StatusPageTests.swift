import DeckTestSupport
import Foundation
import Locking
import MicroHTTP
import StateDeck
import StateDeckHistory
import Testing
@testable import StateDeckServer

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The public status page without sockets: `DeckServer`'s responder (gate, then routes) over a deck
/// never started, whose panels the tests push, and the renderers over facts the tests build.
@Suite struct StatusPageTests {
    /// A history store whose every panel was up `upMs` and down `downMs` in each hour it is asked for.
    private final class SteadyStore: ReadOnlyHistoryStore {
        let upMs: Int64
        let downMs: Int64
        let uptimeReads = Locked(0)

        init(upMs: Int64, downMs: Int64) {
            self.upMs = upMs
            self.downMs = downMs
        }

        func uptime(of panel: String, _ query: TimelineQuery) throws(HistoryStoreError) -> UptimeReport {
            uptimeReads.withLock { $0 += 1 }
            let now = Date()
            return UptimeReport(query: query, now: now, current: nil, unwatched: [], retention: HistoryRetention()) { (resolution: Resolution, from: Int64) -> [TallyRow] in
                stride(from: from, to: Int64(now.timeIntervalSince1970 * 1000), by: Int(resolution.milliseconds)).map { start in
                    var tally = Tally()
                    tally.upMs = upMs
                    tally.downMs = downMs
                    return TallyRow(panel: panel, resolution: resolution, start: start, watch: 1, tally: tally)
                }
            }
        }

        func changes(of panel: String, _ query: HistoryQuery) throws(HistoryStoreError) -> HistoryPage {
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            return HistoryPage(entries: [
                HistoryEntry(at: at.addingTimeInterval(60), state: .loaded, summary: "private summary"),
                HistoryEntry(at: at, state: .error, errorKind: .unreachable, title: "private title",
                             summary: "private error", detail: "private detail"),
            ], next: nil)
        }
    }

    static let port = RoutedDeckServer.port
    static let host: HTTPHeaders = ["Host": "127.0.0.1:\(port)"]

    /// `web` shown as "Website", the group `pay` (two panels) as "Payments", and `secret`, not shown.
    static func deck(status: Bool = true) -> Deck {
        let page = StatusPage("Acme status", description: "How Acme runs", logo: "https://cdn.example.com/logo.png",
                              links: [.init(title: "Support", url: "https://example.com/help")],
                              components: [.panel("web", name: "Website"), .group("pay", name: "Payments")])
        return Deck("Private deck", status: status ? page : nil) {
            Panel("web", title: "web-frontend-01") { Info(summary: "never loaded") }
            Group("pay", title: "Payment internals") {
                Panel("stripe", title: "Stripe key check") { Info(summary: "never loaded") }
                Panel("ledger", title: "Ledger DB") { Info(summary: "never loaded") }
            }
            Panel("secret", title: "Secret admin") { Info(summary: "never loaded") }
        }
    }

    private static func withServer(
        status: Bool = true, token: AccessToken? = nil, history: (any HistoryStore)? = nil,
        _ body: (DeckServer) async throws -> Void
    ) async throws {
        let folder = try PublicFolder()
        defer { folder.remove() }
        var configuration = ServerConfiguration(publicDirectory: folder.url)
        configuration.token = token
        let server = try await DeckServer(deck: deck(status: status), configuration: configuration, history: history)
        server.responder.gate.bind(port: port)
        try await body(server)
        await server.stop()
    }

    private static func get(_ server: DeckServer, _ target: String, headers: HTTPHeaders = host) async throws -> HTTPResponse {
        try await server.responder.respond(to: HTTPRequest(method: .get, target: target, headers: headers)).answer()
    }

    private static func text(_ response: HTTPResponse) -> String {
        switch response.body {
        case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
        case .shared(let shared): String(decoding: shared.bytes, as: UTF8.self)
        case .stream: ""
        }
    }

    @Test func aDeckWithoutAStatusPageAnswers404Everywhere() async throws {
        try await Self.withServer(status: false) { server in
            for target in ["/status", "/status/state.json", "/status/feed.atom"] {
                let response = try await Self.get(server, target)
                #expect(response.status == .notFound, "\(target)")
                #expect(Self.text(response).contains("no public status page"))
            }
        }
    }

    @Test func thePageShowsPublicNamesAndStatesWithItsOwnPolicyAndShortCache() async throws {
        try await Self.withServer { server in
            try await server.deck.push(.loaded(Info(summary: "fine")), panel: "web")
            try await server.deck.push(.loaded(Info(summary: "fine")), panel: "stripe")
            try await server.deck.push(.error(PanelError(.unreachable, detail: "ledger.internal:5432 refused")), panel: "ledger")
            try await server.deck.push(.error(PanelError(.unreachable)), panel: "secret")
            let response = try await Self.get(server, "/status")
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(response.headers["Cache-Control"] == "public, max-age=5")
            #expect(response.headers["Content-Security-Policy"] == "default-src 'none'; script-src 'self'; style-src 'self'; "
                + "img-src 'self' data: https://cdn.example.com; connect-src 'self'; base-uri 'none'; form-action 'none'; "
                + "frame-ancestors 'none'")
            #expect(response.headers["Server-Timing"]?.hasPrefix("render;dur=") == true)
            let html = Self.text(response)
            #expect(html.contains("<h1>Acme status</h1>"))
            #expect(html.contains(#"<li class="up"><b>Website</b> <span>Operational</span></li>"#))
            #expect(html.contains(#"<li class="degraded"><b>Payments</b> <span>Degraded</span></li>"#))
            #expect(html.contains(#"<p class="overall state-degraded" role="status">Some systems are degraded</p>"#))
            #expect(html.contains("No history kept: the state now only."))
            #expect(html.contains(#"<a href="https://example.com/help" rel="noopener">Support</a>"#))
            #expect(!html.contains("<script>") && !html.contains("style="))
            for secret in ["web-frontend", "stripe", "Stripe", "ledger", "Ledger", "secret", "Secret", "Private deck", "internals", "5432"] {
                #expect(!html.contains(secret), "\(secret) is shown")
            }
        }
    }

    @Test func theDocumentsAreBuiltOnceForEveryRequestWithinTheirLife() async throws {
        try await Self.withServer { server in
            try await server.deck.push(.loaded(Info(summary: "fine")), panel: "web")
            let first = try await Self.get(server, "/status")
            try await server.deck.push(.error(PanelError(.unreachable)), panel: "web")
            let second = try await Self.get(server, "/status")
            guard case .shared(let one) = first.body, case .shared(let two) = second.body else {
                Issue.record("not shared bytes")
                return
            }
            #expect(one === two, "rebuilt within 5 s")
            #expect(Self.text(second).contains("Operational"))
        }
    }

    @Test func theJSONHoldsThePublicFactsOnly() async throws {
        try await Self.withServer { server in
            try await server.deck.push(.error(PanelError(.unreachable, detail: "10.0.0.7 refused")), panel: "web")
            let response = try await Self.get(server, "/status/state.json")
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.headers["Access-Control-Allow-Origin"] == "*")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(Self.text(response).utf8)) as? [String: Any])
            #expect(Set(document.keys) == ["title", "description", "logo", "links", "state", "summary", "generatedAt",
                                           "firstDay", "lines", "incidents"])
            let lines = try #require(document["lines"] as? [[String: Any]])
            #expect(lines.map { $0["name"] as? String } == ["Website", "Payments"])
            #expect(lines.map { $0["state"] as? String } == ["down", "unknown"])
            #expect(Set(lines[0].keys) == ["name", "state", "uptime", "days"])
            #expect(!Self.text(response).contains("10.0.0.7"))
        }
    }

    @Test func withAHistoryEachLineHasNinetyDaysAndItsUptime() async throws {
        let store = SteadyStore(upMs: 3_599_000, downMs: 1_000)
        try await Self.withServer(history: store) { server in
            let html = Self.text(try await Self.get(server, "/status"))
            #expect(html.contains(#"<li class="unknown"><b>Website</b> <span>No data yet</span><img src="/status/days/0.svg" alt="" loading="lazy"><small>99.97 % uptime</small></li>"#))
            #expect(html.contains(#"<img src="/status/days/1.svg""#))
            #expect(!html.contains("No history kept"))
            // Three panels, each read once: the next renders take the days kept.
            #expect(store.uptimeReads.current == 3)
            _ = try await Self.get(server, "/status/state.json")
            #expect(store.uptimeReads.current == 3)
            // Every day is down a little: one run of 90 days.
            let image = try await Self.get(server, "/status/days/1.svg")
            #expect(image.headers["Content-Type"] == "image/svg+xml")
            #expect(Self.text(image) == ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 90 10" preserveAspectRatio="none"><rect x="0" width="90" height="10" fill="#e08a1e"/></svg>"##)
            #expect(try await Self.get(server, "/status/days/2.svg").status == .notFound)
        }
    }

    @Test func theDaysImageDrawsARectPerRunOfDaysInOneState() {
        var up = Tally()
        up.upMs = 1
        var down = Tally()
        down.downMs = 1
        let svg = String(decoding: StatusHTML.daysImage([Tally(), Tally(), up, up, down, up]), as: UTF8.self)
        #expect(svg.hasSuffix(##"preserveAspectRatio="none"><rect x="0" width="2" height="10" fill="#8a94a6"/><rect x="2" width="2" height="10" fill="#2f9e5a"/><rect x="4" width="1" height="10" fill="#d63c3c"/><rect x="5" width="1" height="10" fill="#2f9e5a"/></svg>"##), "\(svg)")
    }

    @Test func theStatusPageNeedsNoTokenWhileTheDashboardDoes() async throws {
        let token = AccessToken.generate()
        try await Self.withServer(token: token) { server in
            for target in ["/status", "/status/state.json", "/status/feed.atom"] {
                #expect(try await Self.get(server, target).status == .ok, "\(target)")
            }
            for target in ["/", "/api/state", "/badge/secret.svg", "/badge/stripe.svg"] {
                #expect(try await Self.get(server, target).status == .forbidden, "\(target)")
            }
            var crossSite = Self.host
            crossSite.add("Sec-Fetch-Site", "cross-site")
            let badge = try await Self.get(server, "/badge/web.svg", headers: crossSite)
            #expect(badge.status == .ok)
            #expect(badge.headers["Cross-Origin-Resource-Policy"] == "cross-origin")
            #expect(Self.text(badge).contains("<title>Website: unknown</title>"))
            #expect(try await Self.get(server, "/status", headers: ["Host": "evil.example:\(Self.port)"]).status == .forbidden)
        }
    }

    @Test func theFeedIsWellFormedAtomOfIncidentsAndChanges() async throws {
        try await Self.withServer(history: SteadyStore(upMs: 1, downMs: 0)) { server in
            let response = try await Self.get(server, "/status/feed.atom")
            #expect(response.headers["Content-Type"] == "application/atom+xml; charset=utf-8")
            #expect(response.headers["Cache-Control"] == "public, max-age=60")
            let xml = Self.text(response)
            #expect(XMLParser(data: Data(xml.utf8)).parse(), "not well-formed: \(xml)")
            #expect(xml.contains("<title>Website is down</title>"))
            #expect(xml.contains("<title>Website is up</title>"))
            #expect(xml.contains("<title>Payments is down</title>"))
            for secret in ["private", "stripe", "ledger"] { #expect(!xml.contains(secret)) }
        }
    }

    // MARK: - Rendering facts

    static let opened = Date(timeIntervalSince1970: 1_800_000_000)

    static func incident(_ id: String, panels: [String], resolved: Bool = false) -> Incident {
        var updates = [Incident.Update(at: opened, status: .investigating, message: "Looking into <errors>", author: "alice@ops")]
        if resolved { updates.append(Incident.Update(at: opened.addingTimeInterval(600), status: .resolved, message: "Fixed", author: "bob@ops")) }
        return Incident(id: id, title: "Trouble \(id)", panels: panels, updates: updates)
    }

    private static func facts(_ incidents: [Incident], now: Date = opened.addingTimeInterval(3_600)) -> StatusFacts {
        let page = deck().statusPage!
        return StatusFacts(page: page, readings: ["web": .init(health: .down)], days: nil, firstDay: nil,
                           incidents: incidents, now: now)
    }

    @Test func incidentsShowPublicNamesAndNeitherAuthorsNorIncidentsOfHiddenPanels() throws {
        let facts = Self.facts([
            Self.incident("a", panels: ["web", "ledger"]), Self.incident("b", panels: ["secret"]),
            Self.incident("c", panels: [], resolved: true),
        ])
        let html = String(decoding: StatusHTML.render(facts), as: UTF8.self)
        #expect(html.contains("<h3>Trouble a</h3>\n<p class=\"affects\">Affects Website, Payments</p>"))
        #expect(html.contains("Looking into &lt;errors&gt;"))
        #expect(html.contains(#"<time datetime="2027-01-15T08:00:00Z">2027-01-15 08:00 UTC</time>"#))
        #expect(!html.contains("Trouble b"))
        #expect(!html.contains("alice") && !html.contains("bob"))
        // The announcement, resolved, is past: after "Past incidents".
        let past = try #require(html.range(of: "Past incidents"))
        #expect(html.range(of: "Trouble c").map { $0.lowerBound > past.lowerBound } == true)
        #expect(html.contains("<p class=\"affects\">Announcement</p>"))
    }

    @Test func incidentsResolvedMoreThanNinetyDaysAgoAreLeftOut() {
        let facts = Self.facts([Self.incident("old", panels: ["web"], resolved: true)],
                               now: Self.opened.addingTimeInterval(91 * 86_400))
        #expect(facts.incidents.isEmpty)
        let html = String(decoding: StatusHTML.render(facts), as: UTF8.self)
        #expect(html.contains("No incidents in the last 90 days."))
    }

    @Test(arguments: [
        ([StatusFacts.State.up, .up], StatusFacts.State.up), ([.down, .down], .down), ([.up, .down], .degraded),
        ([.unknown, .down], .down), ([.maintenance, .up], .up), ([.maintenance, .down], .down), ([], .unknown),
        ([.maintenance, .maintenance], .maintenance), ([.degraded, .up], .degraded),
    ])
    func aGroupsStateIsItsPanels(states: [StatusFacts.State], combined: StatusFacts.State) {
        #expect(StatusFacts.combined(states) == combined)
    }

    @Test func feedIdsAreVersionEightUUIDsThatStayTheSame() {
        let id = StatusFeed.uuid("incident", "Acme status", "a")
        #expect(id == StatusFeed.uuid("incident", "Acme status", "a"))
        #expect(id != StatusFeed.uuid("incident", "Acme status", "b"))
        #expect(id.range(of: #"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#,
                         options: .regularExpression) != nil, "\(id)")
    }
}
