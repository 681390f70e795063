import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Each condition of an http source's `expect`, holding and failing, against a local server.
@Suite("ResponseCondition")
struct ResponseConditionTests {
    let server: TestHTTPServer

    static let health = """
        {"status": "ok", "queue": {"depth": 12}, "ratio": 0.75, "name": "db-main", "count": "12"}
        """

    init() throws {
        server = try TestHTTPServer(routes: [
            "/health": .init(status: 200, headers: ["Content-Type": "application/json", "X-Mode": "live", "Server": "nginx/1.25"],
                             body: Self.health),
            "/text": .init(status: 200, body: "version 42\nall good"),
            "/slow": .init(status: 200, body: "ok", delay: .milliseconds(300)),
            "/crash": .init(status: 500),
            "/backtrack": .init(status: 200, headers: ["X-Run": Self.backtracking], body: Self.backtracking),
            "/backtrack.json": .init(status: 200, body: #"{"run": "\#(Self.backtracking)"}"#),
        ])
    }

    /// 25 a's, then what `^(a+)+$` cannot end on: every way to split the a's is tried first.
    static let backtracking = String(repeating: "a", count: 25) + "b"
    static let catastrophic = pattern("^(a+)+$")

    func load(_ path: String, _ conditions: [ResponseCondition]) async throws -> Info {
        try await HTTPSource(url: server.url(path), timeout: .seconds(2), conditions: conditions).load()
    }

    static func pointer(_ text: String) -> JSONPointer {
        JSONPointer(text)!
    }

    static func pattern(_ text: String) -> TextPattern {
        // The patterns below are valid: reading refuses an invalid one (ConditionReadingTests).
        try! TextPattern(text)
    }

    static let holding: [ResponseCondition] = [
        .status(StatusSet([200...200])),
        .status(StatusSet([204...204, 200...299])),
        .header("content-type", .present(true)),
        .header("X-Debug", .present(false)),
        .header("X-Mode", .equals("live")),
        .header("Server", .matches(pattern("^nginx"))),
        .body(.contains("\"ok\"")),
        .body(.matches(pattern("\"depth\": [0-9]+"))),
        .pointer(pointer("/status"), .equals(.string("ok"))),
        .pointer(pointer("/queue"), .exists(true)),
        .pointer(pointer("/missing"), .exists(false)),
        .pointer(pointer("/queue/depth"), .below(100)),
        .pointer(pointer("/ratio"), .above(0.5)),
        .pointer(pointer("/name"), .matches(pattern("^db-"))),
        .under(.seconds(2)),
    ]

    @Test(arguments: holding)
    func aConditionThatHoldsLoads(_ condition: ResponseCondition) async throws {
        let info = try await load("/health", [condition])
        #expect(info.summary == "HTTP 200")
    }

    /// A condition, the path it is asked of, and the card's failure reason.
    static let failing: [(ResponseCondition, String, String)] = [
        (.header("X-Mode", .equals("maintenance")), "/health", #"Header X-Mode is "live", expected "maintenance"."#),
        (.header("X-Token", .present(true)), "/health", "Header X-Token is missing."),
        (.header("x-mode", .present(false)), "/health", #"Header x-mode is "live", expected none."#),
        (.header("Server", .matches(pattern("^apache"))), "/health", #"Header Server is "nginx/1.25", expected it to match "^apache"."#),
        (.header("X-Region", .equals("eu")), "/health", #"Header X-Region is missing, expected "eu"."#),
        (.body(.contains("degraded")), "/text", #"The answer does not contain "degraded"."#),
        (.body(.matches(pattern("version [a-z]+"))), "/text", #"The answer does not match "version [a-z]+"."#),
        (.pointer(pointer("/status"), .equals(.string("degraded"))), "/health", #"/status is "ok", expected "degraded"."#),
        (.pointer(pointer("/count"), .equals(.number(12))), "/health", #"/count is "12", a string, expected 12."#),
        (.pointer(pointer("/missing"), .exists(true)), "/health", "/missing is missing."),
        (.pointer(pointer("/queue"), .exists(false)), "/health", #"/queue is {"depth":12}, expected nothing there."#),
        (.pointer(pointer("/queue/depth"), .below(10)), "/health", "/queue/depth is 12, expected below 10."),
        (.pointer(pointer("/ratio"), .above(0.8)), "/health", "/ratio is 0.75, expected above 0.8."),
        (.pointer(pointer("/count"), .below(100)), "/health", #"/count is "12", a string, expected a number below 100."#),
        (.pointer(pointer("/depth"), .above(1)), "/health", "/depth is missing, expected a number above 1."),
        (.pointer(pointer("/name"), .matches(pattern("^web-"))), "/health", #"/name is "db-main", expected to match "^web-"."#),
        (.pointer(pointer("/ratio"), .matches(pattern("^0"))), "/health", #"/ratio is 0.75, expected a string matching "^0"."#),
        (.body(.matches(catastrophic)), "/backtrack", #"The answer: the pattern "^(a+)+$" gave up after 10,000,000 steps."#),
        (.header("X-Run", .matches(catastrophic)), "/backtrack", #"Header X-Run: the pattern "^(a+)+$" gave up after 10,000,000 steps."#),
        (.pointer(pointer("/run"), .matches(catastrophic)), "/backtrack.json", #"/run: the pattern "^(a+)+$" gave up after 10,000,000 steps."#),
    ]

    @Test(arguments: failing)
    func aConditionThatFailsNamesItAndWhatCame(_ condition: ResponseCondition, path: String, reason: String) async throws {
        let error = try #require(await panelError { try await load(path, [condition]) })
        #expect(error.kind == .checkFailed)
        #expect(error.title == "Check failed")
        #expect(error.failureReason == reason)
        #expect(error.recoverySuggestion?.contains("expect") == true)
        #expect(error.detail?.hasPrefix("GET \(server.url(path).absoluteString) answered 200") == true)
    }

    @Test func aStatusOutsideTheExpectedOnesNamesThem() async throws {
        let error = try #require(await panelError { try await load("/health", [.status(StatusSet([201...201, 300...399]))]) })
        #expect(error.kind == .checkFailed)
        #expect(error.failureReason == "\(server.url("/health").absoluteString) answered 200, expected 201 or 300-399.")
    }

    /// A 5xx says more than any condition: it stays a server error, retried on its own.
    @Test func aStatusTheServiceMeansAsAFailureKeepsItsKind() async throws {
        let error = try #require(await panelError {
            try await load("/crash", [.status(StatusSet([200...200])), .body(.contains("ok"))])
        })
        #expect(error.kind == .serverError)
    }

    @Test func anAnswerSlowerThanTheLimitFails() async throws {
        let error = try #require(await panelError { try await load("/slow", [.under(.milliseconds(100))]) })
        #expect(error.kind == .checkFailed)
        let reason = try #require(error.failureReason)
        #expect(reason.hasPrefix("Answered in "), "\(reason)")
        #expect(reason.hasSuffix(" ms, expected under 100 ms."), "\(reason)")
        let took = try #require(Int(reason.dropFirst("Answered in ".count).prefix { $0.isNumber }))
        #expect(took >= 300, "the server waits 300 ms: \(reason)")
        _ = try await load("/slow", [.under(.seconds(2))])
    }

    @Test func conditionsAreJudgedInOrderAndAllMustHold() async throws {
        let conditions: [ResponseCondition] = [
            .header("X-Mode", .equals("live")),
            .pointer(Self.pointer("/status"), .equals(.string("ok"))),
            .pointer(Self.pointer("/queue/depth"), .below(10)),
            .pointer(Self.pointer("/ratio"), .above(0.9)),
        ]
        let error = try #require(await panelError { try await load("/health", conditions) })
        #expect(error.failureReason == "/queue/depth is 12, expected below 10.")
    }

    @Test func aPointerIntoABodyThatIsNotJSONIsAnInvalidResponse() async throws {
        let error = try #require(await panelError { try await load("/text", [.pointer(Self.pointer("/status"), .exists(true))]) })
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "The answer is not JSON.")
    }

    @Test func whenTheAnswerChangesTheConditionFollows() async throws {
        let live: [ResponseCondition] = [.header("X-Mode", .equals("live"))]
        _ = try await load("/health", live)
        server.answer("/health", with: .init(status: 200, headers: ["X-Mode": "maintenance"], body: Self.health))
        let error = try #require(await panelError { try await load("/health", live) })
        #expect(error.failureReason == #"Header X-Mode is "maintenance", expected "live"."#)
    }

    /// Patterns are matched off Swift's shared pool: answers whose patterns take all of their
    /// steps leave it free for every other task (the deck, the server's routes).
    @Test func patternsThatGiveUpLeaveTheSharedPoolFree() async throws {
        let source = HTTPSource(url: server.url("/backtrack"), timeout: .seconds(30),
                                conditions: Array(repeating: .body(.matches(Self.catastrophic)), count: 4))
        let loads = (0..<4).map { _ in Task { try await source.load() } }
        var latest = Duration.zero
        for _ in 0..<20 {
            let asleep = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(20))
            latest = max(latest, ContinuousClock.now - asleep - .milliseconds(20))
        }
        for load in loads {
            let error = try #require(await panelError { try await load.value })
            #expect(error.failureReason?.contains("gave up after 10,000,000 steps") == true)
        }
        #expect(latest < .milliseconds(300), "a sleep on the shared pool woke \(latest) late")
    }
}
