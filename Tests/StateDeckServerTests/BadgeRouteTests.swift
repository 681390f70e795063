import Foundation
import MicroHTTP
import StateDeck
import StateDeckHistory
import Testing
@testable import StateDeckServer

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `GET /badge/{panel}.svg` without sockets: `DeckServer`'s own responder (gate and routes) over a
/// deck that is never started, whose panels the tests set, and a store whose uptime they choose.
@Suite struct BadgeRouteTests {
    /// A history store that answers the uptime route with `report`, or cannot be read without one.
    private final class FixedUptimeStore: ReadOnlyHistoryStore {
        let report: UptimeReport?

        private init(report: UptimeReport?) {
            self.report = report
        }

        /// A store whose report gives these ratios.
        convenience init(day: Double?, week: Double?, month: Double?) {
            var report = UptimeReport(query: TimelineQuery(to: Date()), now: Date(), current: nil, unwatched: [],
                                      retention: HistoryRetention()) { _, _ in [] }
            report.day = day
            report.week = week
            report.month = month
            self.init(report: report)
        }

        /// A store whose file cannot be read.
        static func unreadable() -> FixedUptimeStore {
            FixedUptimeStore(report: nil)
        }

        func uptime(of panel: String, _ query: TimelineQuery) throws(HistoryStoreError) -> UptimeReport {
            guard let report else { throw .unreadable("disk I/O error") }
            return report
        }

        func changes(of panel: String, _ query: HistoryQuery) throws(HistoryStoreError) -> HistoryPage {
            HistoryPage(entries: [], next: nil)
        }
    }

    static let port = 8080
    static let quotedTitle = #"<A & "B"> 'C'"#

    /// `api` ("API") and `quoted`, whose title needs escaping; neither loads on its own.
    private static func deck() -> Deck {
        Deck("Badges") {
            Panel("api", title: "API") { Info(summary: "never loaded") }
            Panel("quoted", title: quotedTitle) { Info(summary: "never loaded") }
        }
    }

    /// The deck's server, not started, its gate set to `port`; `body` runs with it, then the page
    /// folder is removed.
    private static func withServer(
        history: (any HistoryStore)? = nil, _ body: (DeckServer) async throws -> Void
    ) async throws {
        let folder = try PublicFolder()
        defer { folder.remove() }
        let server = try await DeckServer(
            deck: deck(), configuration: ServerConfiguration(publicDirectory: folder.url), history: history)
        server.responder.gate.bind(port: port)
        try await body(server)
    }

    static let host: HTTPHeaders = ["Host": "127.0.0.1:\(port)"]

    /// The answer to GET `target`, deferred or not.
    private static func get(_ server: DeckServer, _ target: String, headers: HTTPHeaders = host) async throws -> HTTPResponse {
        try await server.responder.respond(to: HTTPRequest(method: .get, target: target, headers: headers)).answer()
    }

    private static func body(_ response: HTTPResponse) throws -> String {
        let bytes: [UInt8]? = if case .bytes(let bytes) = response.body { bytes } else { nil }
        return String(decoding: try #require(bytes, "the body is not bytes"), as: UTF8.self)
    }

    /// The `code` and `message` of an error answer.
    private static func error(_ response: HTTPResponse) throws -> (code: String, message: String) {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(try body(response).utf8)) as? [String: Any])
        let error = try #require(document["error"] as? [String: String])
        return (try #require(error["code"]), try #require(error["message"]))
    }

    /// The badge's SVG, after checking it is one: 200, its type, never cached, well-formed XML.
    private static func badge(_ server: DeckServer, _ target: String) async throws -> String {
        let response = try await get(server, target)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/svg+xml")
        #expect(response.headers["Cache-Control"] == "no-cache")
        let svg = try body(response)
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "not well-formed XML: \(svg)")
        return svg
    }

    @Test(arguments: [
        ("unknown", "#9f9f9f"), ("loading", "#007ec6"), ("up", "#4c1"), ("down", "#e05d44"),
    ])
    func eachStateHasItsWordAndColour(state: String, colour: String) async throws {
        try await Self.withServer { server in
            switch state {
            case "loading": try await server.deck.push(.loading, panel: "api")
            case "up": try await server.deck.push(.loaded(Info(summary: "fine")), panel: "api")
            case "down": try await server.deck.push(.error(PanelError(.unreachable)), panel: "api")
            default: break
            }
            let svg = try await Self.badge(server, "/badge/api.svg")
            #expect(svg.contains("<title>API: \(state)</title>"))
            #expect(svg.contains(#"aria-label="API: \#(state)""#))
            #expect(svg.contains(##"fill="\##(colour)""##))
            #expect(svg.contains(">API</text>"))
            #expect(svg.contains(">\(state)</text>"))
        }
    }

    @Test func anUpPanelReloadingStaysUp() async throws {
        try await Self.withServer { server in
            try await server.deck.push(.loaded(Info(summary: "fine")), panel: "api")
            _ = try await server.deck.debug(.loading, panel: "api")
            #expect(try await Self.badge(server, "/badge/api.svg").contains("<title>API: up</title>"))
        }
    }

    @Test func theTitleIsEscapedEverywhereItIsWritten() async throws {
        try await Self.withServer { server in
            let svg = try await Self.badge(server, "/badge/quoted.svg")
            let escaped = "&lt;A &amp; &quot;B&quot;&gt; &apos;C&apos;"
            #expect(svg.contains("<title>\(escaped): unknown</title>"))
            #expect(svg.contains(#"aria-label="\#(escaped): unknown""#))
            #expect(svg.components(separatedBy: ">\(escaped)</text>").count == 3, "the text and its shadow")
            #expect(!svg.contains(Self.quotedTitle))
        }
    }

    @Test func controlCharactersAndCombiningMarksCannotBreakTheXML() {
        let badge = BadgeSVG(label: "a\u{1}b\nc\u{FFFF}", message: "&\u{301}<\u{301}", colour: .grey)
        #expect(badge.label == "a b c ")
        #expect(badge.document.contains(">&amp;\u{301}&lt;\u{301}</text>"))
        #expect(XMLParser(data: Data(badge.document.utf8)).parse())
    }

    @Test func eachBoxIsAsWideAsItsTextSoNothingOverflows() throws {
        let short = BadgeSVG(label: "i", message: "up", colour: .brightGreen)
        let long = BadgeSVG(label: "WWWWWWWWWW", message: "up", colour: .brightGreen)
        let wide = BadgeSVG(label: "数据库", message: "up", colour: .brightGreen)
        #expect(BadgeTextWidth.of("WWWWWWWWWW") >= 110, "Verdana's W is 11 px at 11 px")
        #expect(BadgeTextWidth.of("i") <= 4)
        #expect(BadgeTextWidth.of("数据库") >= 33, "a CJK character is a whole em")
        for badge in [short, long, wide] {
            let labelBox = BadgeTextWidth.of(badge.label) + 10
            let total = labelBox + BadgeTextWidth.of("up") + 10
            #expect(badge.document.contains(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(total)""#))
            #expect(badge.document.contains(##"<rect width="\##(labelBox)" height="20" fill="#555"/>"##))
            #expect(badge.document.contains(#"textLength="\#((labelBox - 10) * 10)""#), "the text is pinned to its box")
        }
    }

    @Test(arguments: [
        ("24h", "99.95% (24h)", "#4c1"), ("7d", "95% (7d)", "#dfb317"), ("30d", "no data (30d)", "#9f9f9f"),
    ])
    func uptimeShowsTheWindowsRatioFromTheStore(window: String, message: String, colour: String) async throws {
        let store = FixedUptimeStore(day: 0.9995, week: 0.95, month: nil)
        try await Self.withServer(history: store) { server in
            let svg = try await Self.badge(server, "/badge/api.svg?uptime=\(window)")
            #expect(svg.contains("<title>API: \(message)</title>"), "\(svg)")
            #expect(svg.contains(##"fill="\##(colour)""##))
        }
    }

    @Test(arguments: [
        (1.0, "100%", BadgeSVG.Colour.brightGreen), (0.999_999, "99.99%", .brightGreen), (0.999, "99.9%", .brightGreen),
        (0.995, "99.5%", .green), (0.9501, "95.01%", .yellow), (0.9, "90%", .orange), (0.5, "50%", .red), (0, "0%", .red),
    ])
    func uptimeIsRoundedDownToHundredthsSoAnyTimeDownNeverReads100(ratio: Double, percent: String, colour: BadgeSVG.Colour) {
        let badge = BadgeRoute.uptimeBadge(label: "API", ratio: ratio, window: .day)
        #expect(badge.message == "\(percent) (24h)")
        #expect(badge.colour == colour)
    }

    @Test func anUnknownPanelIs404InTheErrorShape() async throws {
        let store = FixedUptimeStore(day: 1, week: 1, month: 1)
        try await Self.withServer(history: store) { server in
            for target in ["/badge/nope.svg", "/badge/nope.svg?uptime=24h"] {
                let response = try await Self.get(server, target)
                #expect(response.status == .notFound)
                let error = try Self.error(response)
                #expect(error.code == "not_found")
                #expect(error.message.contains("nope"), "\(error.message)")
            }
        }
    }

    @Test(arguments: ["1y", "24", "", "24H"])
    func aBadUptimeIs400NamingTheParameter(value: String) async throws {
        let store = FixedUptimeStore(day: 1, week: 1, month: 1)
        try await Self.withServer(history: store) { server in
            let response = try await Self.get(server, "/badge/api.svg?uptime=\(value)")
            #expect(response.status == .badRequest)
            let error = try Self.error(response)
            #expect(error.code == "bad_request")
            #expect(error.message == "uptime must be one of 24h, 7d, 30d, not '\(value)'")
        }
    }

    @Test func uptimeWithoutAHistoryIs404AndAnUnreadableStoreIs503() async throws {
        try await Self.withServer { server in
            #expect(try await Self.badge(server, "/badge/api.svg").contains("API: unknown"), "the state needs no history")
            let response = try await Self.get(server, "/badge/api.svg?uptime=24h")
            #expect(response.status == .notFound)
            #expect(try Self.error(response).code == "no_history")
        }
        try await Self.withServer(history: FixedUptimeStore.unreadable()) { server in
            let response = try await Self.get(server, "/badge/api.svg?uptime=24h")
            #expect(response.status == .serviceUnavailable)
            #expect(try Self.error(response).code == "history_unavailable")
        }
    }

    @Test func theGateRefusesOtherSitesAndHostsAsForTheAPI() async throws {
        try await Self.withServer { server in
            var crossSite = Self.host
            crossSite.add("Sec-Fetch-Site", "cross-site")
            var otherOrigin = Self.host
            otherOrigin.add("Origin", "http://evil.example")
            let otherHost: HTTPHeaders = ["Host": "evil.example:\(Self.port)"]
            for headers in [crossSite, otherOrigin, otherHost] {
                let response = try await Self.get(server, "/badge/api.svg", headers: headers)
                #expect(response.status == .forbidden, "\(Array(headers))")
                #expect(try Self.error(response).code == "forbidden")
            }
            let head = RequestHead(method: .get, target: "/badge/api.svg", headers: Self.host)
            #expect(server.responder.respond(toHead: head) == nil, "not answered as a file on Host alone")
        }
    }
}
