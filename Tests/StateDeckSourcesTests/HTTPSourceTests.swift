import Foundation
@testable import HTTPClient
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

@Suite("HTTPSource")
struct HTTPSourceTests {
    let server: TestHTTPServer

    init() throws {
        let json = #"{"status": "ok", "version": "1.2.3", "checks": {"db": "up"}, "jobs": 4}"#
        server = try TestHTTPServer(routes: [
            "/health": .init(status: 200, headers: ["Content-Type": "application/json"], body: json),
            "/text": .init(status: 200, body: "all good\n"),
            "/created": .init(status: 201),
            "/crash": .init(status: 500, body: "stack trace"),
            "/gateway": .init(status: 502),
            "/overloaded": .init(status: 503, body: "too busy"),
            "/retry-after": .init(status: 503, headers: ["Retry-After": "120"]),
            "/retry-date": .init(status: 503, headers: ["Retry-After": "Wed, 21 Oct 2099 07:28:00 GMT"]),
            "/maintenance": .init(status: 503, body: "Down for scheduled Maintenance"),
            "/login": .init(status: 401),
            "/forbidden": .init(status: 403),
            "/redirect": .init(status: 302, headers: ["Location": "/text"]),
            "/slow": .init(status: 200, delay: .seconds(3)),
            "/huge": .init(status: 200, body: String(repeating: "x", count: HTTPSource.maxBodySize + 1)),
            "/huge-header": .init(status: 200, headers: ["X-Huge": Self.tenMegabytes]),
            // Each within libcurl's limit on one header (100 KiB), not together within StateDeck's.
            "/large-headers": .init(status: 200, headers: ["X-One": Self.thirtyKilobytes, "X-Two": Self.thirtyKilobytes,
                                                           "X-Three": Self.thirtyKilobytes]),
            "/many-headers": .init(status: 200, headers: Self.tenThousandHeaders),
        ])
    }

    // Built once: every test builds its own server.
    static let tenMegabytes = String(repeating: "x", count: 10 << 20)
    static let thirtyKilobytes = String(repeating: "x", count: 30 << 10)
    /// 390 KB in all: more than libcurl's own limit on an answer's headers (300 KiB).
    static let tenThousandHeaders = Dictionary(uniqueKeysWithValues: (1...10_000).map {
        ("X-Header-\($0)", String(repeating: "v", count: 20))
    })

    func source(_ path: String, configure: (inout HTTPSource) -> Void = { _ in }) -> HTTPSource {
        var source = HTTPSource(url: server.url(path), timeout: .seconds(2))
        configure(&source)
        return source
    }

    @Test func aHealthyEndpointGivesItsStatusAndPickedFieldsButNotItsLatency() async throws {
        let info = try await source("/health") {
            $0.picks = [.init(label: "Version", pointer: JSONPointer("/version")!),
                        .init(label: "Database", pointer: JSONPointer("/checks/db")!),
                        .init(label: "Jobs", pointer: JSONPointer("/jobs")!)]
        }.load()
        #expect(info.summary == "HTTP 200", "the latency differs on every check: it is the panel's loadMs")
        #expect(info.fields?.map(\.label) == ["Status", "Version", "Database", "Jobs"])
        #expect(info.fields?.suffix(3).map(\.value) == ["1.2.3", "up", "4"])
        #expect(info.text == nil)
    }

    @Test func aTextBodyGivesAnExcerpt() async throws {
        let info = try await source("/text").load()
        #expect(info.text == "all good")
    }

    @Test func headersMethodAndBodyAreSent() async throws {
        _ = try await source("/text") {
            $0.method = "POST"
            $0.headers = ["Authorization": "Bearer secret"]
            $0.body = "{}"
        }.load()
        let request = try #require(server.requests.last)
        #expect(request.hasPrefix("POST /text HTTP/1.1"))
        #expect(request.contains("Authorization: Bearer secret"))
    }

    @Test(arguments: [
        ("/crash", ErrorKind.serverError),
        ("/gateway", .serverError),
        ("/overloaded", .serverError),
        ("/maintenance", .serverMaintenance),
        ("/retry-after", .serverMaintenance),
        ("/login", .unauthorized),
        ("/forbidden", .unauthorized),
        ("/nowhere", .notFound),
        ("/created", .checkFailed),
    ])
    func statusesMapToKinds(path: String, kind: ErrorKind) async {
        let source = source(path) { $0.conditions = path == "/created" ? [.status(StatusSet([204...204]))] : [] }
        let error = await panelError { try await source.load() }
        #expect(error?.kind == kind)
        #expect(error?.detail?.contains("answered") == true)
    }

    @Test func theServersReasonPhraseIsQuoted() async {
        let error = await panelError { try await source("/crash").load() }
        #expect(error?.failureReason == "The service answered 500 (Test).")
    }

    /// Where a retry will not help, the card names the URL that answered and where the fix is.
    @Test(arguments: ["/login", "/nowhere", "/created"])
    func aFixElsewhereIsNamedOnTheCard(path: String) async throws {
        let source = source(path) { $0.conditions = path == "/created" ? [.status(StatusSet([204...204]))] : [] }
        let error = try #require(await panelError { try await source.load() })
        #expect(error.failureReason?.hasPrefix(source.url.absoluteString + " answered") == true)
        #expect(error.recoverySuggestion?.contains("deck file") == true)
    }

    @Test func anExpectedStatusOtherThan2xxLoads() async throws {
        let info = try await source("/login") { $0.conditions = [.status(StatusSet([401...401]))] }.load()
        #expect(info.fields?.first?.value == "401")
    }

    @Test func redirectsAreFollowed() async throws {
        #expect(try await source("/redirect").load().text == "all good")
    }

    @Test func retryAfterIsCarried() async {
        let seconds = await panelError { try await source("/retry-after").load() }
        #expect(seconds?.retryAfter == .seconds(120))
        let date = await panelError { try await source("/retry-date").load() }
        #expect((date?.retryAfter ?? .zero) > .seconds(3600))
    }

    @Test func checksTheBody() async throws {
        _ = try await source("/health") { $0.conditions = [.body(.contains("\"ok\""))] }.load()
        _ = try await source("/health") { $0.conditions = [.pointer(JSONPointer("/checks/db")!, .equals(.string("up")))] }.load()
        _ = try await source("/health") { $0.conditions = [.pointer(JSONPointer("/jobs")!, .equals(.number(4)))] }.load()
        let text = await panelError { try await source("/text") { $0.conditions = [.body(.contains("ready"))] }.load() }
        #expect(text?.kind == .checkFailed)
        let value = await panelError {
            try await source("/health") { $0.conditions = [.pointer(JSONPointer("/status")!, .equals(.string("down")))] }.load()
        }
        #expect(value?.failureReason == #"/status is "ok", expected "down"."#)
    }

    @Test func wrongJSONIsAnInvalidResponse() async {
        let notJSON = await panelError {
            try await source("/text") { $0.picks = [.init(label: "Version", pointer: JSONPointer("/version")!)] }.load()
        }
        #expect(notJSON?.kind == .invalidResponse)
        let missing = await panelError {
            try await source("/health") { $0.picks = [.init(label: "Uptime", pointer: JSONPointer("/uptime")!)] }.load()
        }
        #expect(missing?.failureReason == "The JSON has nothing at /uptime.")
    }

    @Test func aSlowAnswerTimesOut() async {
        let started = ContinuousClock.now
        let error = await panelError { try await source("/slow") { $0.timeout = .milliseconds(300) }.load() }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aCancelledLoadEndsAtOnce() async {
        let started = ContinuousClock.now
        let load = Task { try await source("/slow") { $0.timeout = .seconds(10) }.load() }
        // Cancelled once the transfer is under way, not before it starts.
        #expect(await eventually { server.requests.contains { $0.hasPrefix("GET /slow ") } })
        load.cancel()
        await #expect(throws: CancellationError.self) { try await load.value }
        // The answer would take 3 s.
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aBodyOverTheLimitIsAnInvalidResponse() async {
        let error = await panelError { try await source("/huge").load() }
        #expect(error?.kind == .invalidResponse)
        #expect(error?.failureReason == "The answer is larger than 1 MiB.")
    }

    @Test func aTenMegabyteHeaderIsAnInvalidResponseNamingTheLimit() async throws {
        let error = try #require(await panelError { try await source("/huge-header").load() })
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "The answer's headers are larger than 64 KiB.")
    }

    @Test func headersOverTheLimitTogetherAreAnInvalidResponseNamingTheLimit() async throws {
        let error = try #require(await panelError { try await source("/large-headers").load() })
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "The answer's headers are larger than 64 KiB.")
    }

    @Test func tenThousandHeadersAreAnInvalidResponseNamingTheLimit() async throws {
        let error = try #require(await panelError { try await source("/many-headers").load() })
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "The answer has more than 500 headers.")
    }

    @Test func aRefusedConnectionIsUnreachable() async throws {
        let port = try LoopbackListener.closedPort()
        let error = await panelError { try await HTTPSource(url: URL(string: "http://127.0.0.1:\(port)/")!).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    /// An error card reaches every viewer: the URL it names keeps no user nor password.
    @Test func theCardsNameTheURLWithoutItsPassword() async throws {
        let port = try LoopbackListener.closedPort()
        let refused = await panelError {
            try await HTTPSource(url: URL(string: "http://alice:s3cret-pass@127.0.0.1:\(port)/health?x=1")!).load()
        }
        #expect(refused?.kind == .unreachable)
        #expect(refused?.detail?.hasPrefix("GET http://127.0.0.1:\(port)/health?x=1: ") == true, "\(refused?.detail ?? "")")
        let answered = await panelError {
            try await HTTPSource(url: URL(string: "http://alice:s3cret-pass@127.0.0.1:\(server.port)/login")!).load()
        }
        #expect(answered?.failureReason?.hasPrefix("http://127.0.0.1:\(server.port)/login answered 401") == true, "\(answered?.failureReason ?? "")")
        for error in [refused, answered] {
            let shown = [error?.failureReason, error?.recoverySuggestion, error?.detail].compactMap(\.self).joined(separator: " ")
            #expect(!shown.contains("s3cret"), "\(shown)")
        }
    }

    @Test func anUnknownHostIsUnreachable() async {
        let error = await panelError { try await HTTPSource(url: URL(string: "http://no-such-host.invalid/")!).load() }
        #expect(error?.kind == .unreachable)
    }

    @Test func aHeaderThatWouldStartAnotherIsRefusedBeforeConnecting() async throws {
        // Nothing listens there: a request that went out would fail as unreachable instead.
        let port = try LoopbackListener.closedPort()
        let url = URL(string: "http://127.0.0.1:\(port)/")!
        for headers in [["X-Note": "a\r\nX-Injected: 1"], ["X Note": "a"]] {
            let error = await panelError { try await HTTPSource(url: url, headers: headers).load() }
            #expect(error?.failureReason == "A request header is not valid HTTP.")
            #expect(error?.detail?.contains(String(reflecting: headers.keys.first!)) == true)
        }
    }

    @Test func panelsBeyondTheLimitPerHostShowQueuedAndAllLoad() async throws {
        let server = try KeepAliveServer(delay: .milliseconds(300))
        let ids = (1...HTTPEngine.defaultLimitPerHost + 2).map { "p\($0)" }
        let deck = Deck("One host", panels: ids.map { id in
            let source = HTTPSource(url: URL(string: server.url)!, timeout: .seconds(5))
            return Panel(id, title: id) { try await source.load() }.retry(.none)
        })
        let events = await DeckEvents(observing: deck)
        await deck.start()
        for id in ids {
            #expect(await events.panel(id) { $0.phase == .loaded } != nil)
        }
        await deck.stop()
        // At least the two beyond the limit waited; on a busy machine an answer may also wait for
        // its turn to be judged (``ConditionEvaluation``), and shows queued for that while.
        #expect(Set(events.panelStates.filter(\.queued).map(\.id)).count >= 2, "the two beyond the limit waited")
        #expect(server.mostAtOnce == HTTPEngine.defaultLimitPerHost)
    }
}
