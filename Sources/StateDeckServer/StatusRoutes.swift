import FoundationEssentials
import Locking
import MicroHTTP
import StateDeck
import StateDeckHistory

/// The public status page of a deck that declares one (``StatusPage``): `GET /status` (HTML),
/// `/status/state.json`, `/status/feed.atom` and each line's days (`/status/days/{line}.svg`), which
/// the gate lets anyone read; 404 for a deck without one. Its style and script are the page
/// folder's `status/` files.
///
/// | document | built | `Cache-Control` |
/// | --- | --- | --- |
/// | the facts (``StatusFacts``) both pages are made of | at most once per `life`, by the first request after | |
/// | `/status`, `/status/state.json` | once per version of the facts, shared by every request | `public, max-age=5` |
/// | `/status/feed.atom` | at most once per `feedLife` (its changes read every panel's history) | `public, max-age=60` |
/// | `/status/days/{line}.svg` | for each request, from the facts of the last page built | `public, max-age=5` |
///
/// While one request builds a new version, the others are answered the one before it at once.
/// Reading the history blocks, so a build that reads it runs off libmicrohttpd's thread; each
/// answer tells what building it cost in `Server-Timing` (`render;dur=` milliseconds).
final class StatusRoutes: Sendable {
    /// The three documents, each built at most once per version of the facts.
    enum Document: Int, CaseIterable, Sendable {
        case html, json, feed

        var contentType: String {
            switch self {
            case .html: "text/html; charset=utf-8"
            case .json: "application/json"
            case .feed: "application/atom+xml; charset=utf-8"
            }
        }
    }

    /// A built document: its bytes, its headers (one value, whose storage every answer shares) and
    /// when it was built.
    private struct Built {
        var body: SharedBytes
        var headers: HTTPHeaders
        var at: ContinuousClock.Instant
    }

    private struct Cache {
        /// The deck the documents are of: a replaced deck's are dropped.
        var deck: ObjectIdentifier?
        var facts: (value: StatusFacts, at: ContinuousClock.Instant)?
        var built: [Document: Built] = [:]
        /// Whether a build is under way.
        var building = false
    }

    let deck: @Sendable () -> Deck
    let mirror: StateMirror
    let history: (any HistoryStore)?
    let days: StatusDays?
    let life: Duration
    let feedLife: Duration
    private let cache = Locked(Cache())
    private let encoder = JSONBytesEncoder()

    init(deck: @escaping @Sendable () -> Deck, mirror: StateMirror, history: (any HistoryStore)?,
         life: Duration = .seconds(5), feedLife: Duration = .seconds(60)) {
        self.deck = deck
        self.mirror = mirror
        self.history = history
        days = history.map { StatusDays(history: $0) }
        self.life = life
        self.feedLife = feedLife
    }

    func register(on router: inout Router) {
        router.on(.get, "/status") { [self] _, _ in reply(.html) }
        router.on(.get, "/status/state.json") { [self] _, _ in reply(.json) }
        router.on(.get, "/status/feed.atom") { [self] _, _ in reply(.feed) }
        router.on(.get, "/status/days/{line}.svg") { [self] _, parameters in
            .response(daysImage(line: parameters["line"] ?? ""))
        }
    }

    /// Line `line`'s days as the last facts built hold them: 404 for a line they do not hold, or
    /// without a history.
    private func daysImage(line: String) -> HTTPResponse {
        let facts = cache.withLock { $0.deck == ObjectIdentifier(deck()) ? $0.facts?.value : nil }
        guard let index = Int(line), let lines = facts?.lines, lines.indices.contains(index),
              let days = lines[index].days else {
            return .apiError(.notFound, code: "not_found", message: "no line \(line) with days on the status page")
        }
        return HTTPResponse(status: .ok, headers: Self.imageHeaders, body: .bytes(StatusHTML.daysImage(days)))
    }

    private static let imageHeaders: HTTPHeaders = ["Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=5"]

    /// Reads the days of the page's panels in the background, so that the first visitor after a
    /// start or a new deck does not wait for them.
    func prepareDays() {
        guard let days, let page = deck().statusPage else { return }
        let ids = page.components.flatMap(\.panels)
        Task.detached { days.prepare(ids) }
    }

    /// Whether `segments` name a badge of a panel the status page lists on its own: other sites may
    /// embed those.
    static func isPublicBadge(_ segments: [String], of page: StatusPage?) -> Bool {
        guard let page, segments.count == 2, segments[0] == "badge", segments[1].hasSuffix(".svg") else { return false }
        return page.publicName(ofPanel: String(segments[1].dropLast(4))) != nil
    }

    /// `document` as built, or built now: at once when nothing blocks, else off the transport's thread.
    private func reply(_ document: Document) -> HTTPReply {
        let deck = deck()
        guard let page = deck.statusPage else {
            return .response(.apiError(.notFound, code: "not_found", message: "this dashboard has no public status page"))
        }
        let now = ContinuousClock.now
        let lifetime = document == .feed ? feedLife : life
        let ready: HTTPResponse? = cache.withLock { cache in
            if cache.deck != ObjectIdentifier(deck) { cache = Cache(deck: ObjectIdentifier(deck)) }
            if let built = cache.built[document], now - built.at < lifetime || cache.building {
                return HTTPResponse(status: .ok, headers: built.headers, body: .shared(built.body))
            }
            cache.building = true
            return nil
        }
        if let ready { return .response(ready) }
        guard history != nil else { return .response(build(document, of: page, deck: deck)) }
        return .deferred { [self] in build(document, of: page, deck: deck) }
    }

    /// Builds `document` (and the facts, when they are older than `life`), keeps it and answers it.
    private func build(_ document: Document, of page: StatusPage, deck: Deck) -> HTTPResponse {
        let start = ContinuousClock.now
        var facts = cache.withLock { $0.facts }
        if let kept = facts, start - kept.at < life {
            facts = kept
        } else {
            facts = (makeFacts(page), start)
        }
        let value = facts!.value
        let bytes: [UInt8] = switch document {
        case .html: StatusHTML.render(value)
        case .json: (try? encoder.encode(value)) ?? []
        case .feed: StatusFeed.render(value, changes: feedChanges(of: page))
        }
        let costMs = Double((ContinuousClock.now - start) / .microseconds(1)) / 1_000
        let built = Built(body: SharedBytes(bytes), headers: headers(for: document, costMs: costMs), at: ContinuousClock.now)
        cache.withLock { cache in
            guard cache.deck == ObjectIdentifier(deck) else { return }
            cache.facts = facts
            cache.built[document] = built
            cache.building = false
        }
        return HTTPResponse(status: .ok, headers: built.headers, body: .shared(built.body))
    }

    /// The facts now: the lines' states from the mirror, their days from the history.
    private func makeFacts(_ page: StatusPage) -> StatusFacts {
        let now = Date()
        let ids = page.components.flatMap(\.panels)
        var days: [String: [Tally]]?
        var note: String? = "No history kept: the state now only."
        if let reader = self.days {
            days = try? reader.days(of: ids)
            note = days == nil ? "The history cannot be read just now: the state now only." : nil
        }
        var facts = StatusFacts(page: page, readings: mirror.statusReadings(of: ids), days: days,
                                firstDay: days == nil ? nil : StatusDays.firstDay(at: now),
                                incidents: mirror.incidents(), now: now)
        // While the pages may be behind (nothing runs the deck, say), the page keeps the last state
        // it knew, and says when that was.
        facts.generatedAt = mirror.lastKnownCurrent ?? now
        facts.historyNote = note
        return facts
    }

    /// The lines' changes for the feed; none without a history, or while it cannot be read.
    private func feedChanges(of page: StatusPage) -> [StatusFeed.Change] {
        guard let history else { return [] }
        return (try? StatusFeed.changes(of: page, in: history)) ?? []
    }

    private func headers(for document: Document, costMs: Double) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add("Content-Type", document.contentType)
        headers.add("Cache-Control", document == .feed ? "public, max-age=60" : "public, max-age=5")
        headers.add("Server-Timing", "render;dur=\(Double(Int(costMs * 100)) / 100)")
        if document == .html {
            headers.add("Content-Security-Policy", SecurityHeaders.statusPolicy(logo: deck().statusPage?.logo))
        } else {
            // Facts anyone may read, scripts of other sites included.
            headers.add("Access-Control-Allow-Origin", "*")
            headers.add("Cross-Origin-Resource-Policy", "cross-origin")
        }
        return headers
    }

}
