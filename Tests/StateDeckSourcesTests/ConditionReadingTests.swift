import StateDeck
import Testing
@testable import StateDeckSources

/// `expect:` in a deck file: every form a condition is written in, and every mistake in one.
@Suite("ConditionReading")
struct ConditionReadingTests {
    func parse(_ yaml: String, environment: [String: String] = [:]) throws -> DeckFile {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: "/stack", environment: environment)
    }

    @Test func everyHTTPConditionIsRead() throws {
        let deck = try parse("""
            panels:
              - id: api
                http:
                  url: "http://localhost/"
                  expectStatus: [200, "300-399"]
                  expect:
                    - { status: 200 }
                    - { status: [204, "200-299", " 300 - 399 "] }
                    - { header: Content-Type, present: true }
                    - { header: X-Debug, present: false }
                    - { header: X-Mode, equals: live }
                    - { header: Server, matches: "^nginx" }
                    - { body: { contains: ok } }
                    - { body: { matches: "version [0-9]+" } }
                    - { pointer: /status, equals: ok }
                    - { pointer: /count, equals: 12 }
                    - { pointer: /code, equals: "12" }
                    - { pointer: /queue, exists: true }
                    - { pointer: /queue/depth, below: "${LIMIT}" }
                    - { pointer: /ratio, above: 0.5 }
                    - { pointer: /name, matches: "^db-" }
                    - { under: 500ms }
                  check: { contains: ok }
            """, environment: ["LIMIT": "100"])
        let http = try #require(deck.panels[0].source.http)
        let expected: [ResponseCondition] = [
            .status(StatusSet([200...200, 300...399])),
            .status(StatusSet([200...200])),
            .status(StatusSet([204...204, 200...299, 300...399])),
            .header("Content-Type", .present(true)),
            .header("X-Debug", .present(false)),
            .header("X-Mode", .equals("live")),
            .header("Server", .matches(try TextPattern("^nginx"))),
            .body(.contains("ok")),
            .body(.matches(try TextPattern("version [0-9]+"))),
            .pointer(JSONPointer("/status")!, .equals(.string("ok"))),
            .pointer(JSONPointer("/count")!, .equals(.number(12))),
            .pointer(JSONPointer("/code")!, .equals(.string("12"))),
            .pointer(JSONPointer("/queue")!, .exists(true)),
            .pointer(JSONPointer("/queue/depth")!, .below(100)),
            .pointer(JSONPointer("/ratio")!, .above(0.5)),
            .pointer(JSONPointer("/name")!, .matches(try TextPattern("^db-"))),
            .under(.milliseconds(500)),
            .body(.contains("ok")),
        ]
        #expect(http.conditions == expected)
    }

    @Test func theShorthandsAreConditions() throws {
        let deck = try parse("""
            panels:
              - { id: a, http: { url: "http://localhost/", expectStatus: 204, check: { pointer: /status, equals: ok } } }
              - { id: b, http: { url: "http://localhost/" } }
            """)
        #expect(try #require(deck.panels[0].source.http).conditions == [
            .status(StatusSet([204...204])), .pointer(JSONPointer("/status")!, .equals(.string("ok"))),
        ])
        #expect(try #require(deck.panels[1].source.http).conditions == [])
    }

    @Test func everyTCPConditionIsRead() throws {
        let deck = try parse("""
            panels:
              - id: ssh
                tcp:
                  host: localhost
                  port: 22
                  expect: [{ banner: { contains: SSH } }, { banner: { matches: "^SSH-2" } }, { under: 100ms }]
            """)
        let expected: [ConnectionCondition] = [
            .banner(.contains("SSH")), .banner(.matches(try TextPattern("^SSH-2"))), .under(.milliseconds(100)),
        ]
        #expect(try #require(deck.panels[0].source.tcp).conditions == expected)
    }

    @Test func aPingIsReadWithItsConditionsAndDefaults() throws {
        let deck = try parse("""
            panels:
              - id: gateway
                ping: { host: 192.0.2.1, count: 5, timeout: 1s, expect: [{ loss: { below: 20% } }, { under: 50ms }] }
              - { id: router, ping: { host: router.lan } }
            """)
        #expect(try #require(deck.panels[0].source.ping) == PingSource(
            host: "192.0.2.1", count: 5, timeout: .seconds(1), conditions: [.lossBelow(0.2), .under(.milliseconds(50))]))
        #expect(try #require(deck.panels[1].source.ping) == PingSource(host: "router.lan", count: 3, timeout: .seconds(2)))
        #expect(deck.panels[1].source.timeout == .milliseconds(2_400), "the whole check's limit: every request's")
    }

    @Test(arguments: [
        ("[{ loss: { below: 120% } }]", "panels[0].ping.expect[0].loss.below: must be a percentage from 0% to 100%, not 120%"),
        ("[{ loss: 5% }]", "panels[0].ping.expect[0].loss: must be a mapping of keys to values"),
        ("[{ loss: {} }]", "panels[0].ping.expect[0].loss.below: is required"),
        ("[{ under: 2s }]", "panels[0].ping.expect[0].under: must be shorter than the timeout, 2 s, which ends the check first"),
        ("[{ banner: { contains: x } }]", "panels[0].ping.expect[0].banner: unknown key (expected loss, under)"),
        ("[{ loss: { below: 5% }, below: 5% }]", "panels[0].ping.expect[0].below: unknown key (expected loss, under)"),
    ])
    func aBrokenPingConditionNamesTheProblem(condition: String, problem: String) {
        #expect(deckFileProblems("panels:\n  - id: gateway\n    ping:\n      host: 192.0.2.1\n      expect: \(condition)")
            == ["deck.yaml:5: " + problem])
    }

    /// A broken condition, written on line 5, and the one problem it must report (read as
    /// DeckFileProblemTests reads a file).
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let source: String
        let condition: String
        let problem: String

        init(_ name: String, _ condition: String, _ problem: String, source: String = "http") {
            self.name = name
            self.condition = condition
            self.problem = problem
            self.source = source
        }

        var testDescription: String { name }

        var yaml: String {
            let address = source == "http" ? #"url: "http://localhost/""# : "host: localhost"
            let port = source == "http" ? "" : "\n      port: 22"
            return "panels:\n  - id: api\n    \(source):\n      \(address)\n      expect: \(condition)\(port)"
        }
    }

    static let cases: [Case] = [
        Case("a list that is a mapping", "{ status: 200 }", "panels[0].http.expect: must be a list"),
        Case("no subject", "[{ equals: live }]",
             "panels[0].http.expect[0]: needs what it checks: one of status, header, body, pointer, under, certificate"),
        Case("a misspelt subject", "[{ headr: X-Mode, equals: live }]",
             "panels[0].http.expect[0].headr: unknown key; did you mean header?"),
        Case("two subjects", "[{ header: X-Mode, pointer: /mode, equals: live }]",
             "panels[0].http.expect[0].pointer: a condition checks one thing, and this one already checks header"),
        Case("a header without a test", "[{ header: X-Mode }]",
             "panels[0].http.expect[0]: needs a test of header: one of present, equals, matches"),
        Case("a misspelt test", "[{ pointer: /status, equal: ok }]",
             "panels[0].http.expect[0].equal: unknown key; did you mean equals?"),
        Case("a test of another subject", "[{ header: X-Mode, below: 3 }]",
             "panels[0].http.expect[0].below: is not a test of header; use one of present, equals, matches"),
        Case("two tests", "[{ pointer: /depth, below: 100, above: 1 }]",
             "panels[0].http.expect[0].above: a condition has one test, and this one already has below"),
        Case("a test given to a status", "[{ status: 200, equals: 200 }]",
             #"panels[0].http.expect[0].equals: is not a test of status: write { status: 200 }, or a list such as [200, "300-399"]"#),
        Case("a status out of range", "[{ status: [200, 999] }]",
             "panels[0].http.expect[0].status[1]: must be a whole number from 100 to 599, not 999"),
        Case("a range backwards", #"[{ status: "299-200" }]"#,
             "panels[0].http.expect[0].status: must be a range of statuses from 100 to 599 like 200-299, not 299-200"),
        Case("a range that is not one", #"[{ status: "2xx" }]"#,
             "panels[0].http.expect[0].status: must be a whole number from 100 to 599, not 2xx"),
        Case("no status at all", "[{ status: [] }]", "panels[0].http.expect[0].status: needs at least one status"),
        Case("a header name with a space", #"[{ header: "X Mode", equals: live }]"#,
             "panels[0].http.expect[0].header: must be a header name: letters, digits and !#$%&'*+-.^_`|~"),
        Case("present that is not a yes or no", "[{ header: X-Mode, present: maybe }]",
             "panels[0].http.expect[0].present: must be true or false, not maybe"),
        Case("a body test that is a text", "[{ body: ok }]",
             "panels[0].http.expect[0].body: must be a mapping of keys to values"),
        Case("a body without a test", "[{ body: {} }]",
             "panels[0].http.expect[0].body: needs contains (a text) or matches (a regular expression)"),
        Case("a body with two tests", #"[{ body: { contains: ok, matches: "o+" } }]"#,
             "panels[0].http.expect[0].body.matches: give either contains or matches, not both"),
        Case("a pointer without slash", "[{ pointer: status, equals: ok }]",
             #"panels[0].http.expect[0].pointer: "status" is not a JSON pointer; it starts with /, like /status"#),
        Case("a limit that is not a number", "[{ pointer: /depth, below: lots }]",
             "panels[0].http.expect[0].below: must be a number, not lots"),
        Case("a pattern that does not compile", #"[{ header: Server, matches: "(nginx" }]"#,
             #"panels[0].http.expect[0].matches: "(nginx" is not a regular expression: missing closing parenthesis at offset 6"#),
        Case("a pattern with a range backwards", #"[{ body: { matches: "[z-a]" } }]"#,
             #"panels[0].http.expect[0].body.matches: "[z-a]" is not a regular expression: range out of order in character class at offset 3"#),
        Case("a time without unit", "[{ under: 500 }]",
             #"panels[0].http.expect[0].under: "500" is not a duration; write it like 500ms, 5s, 2m, 1h or 7d"#),
        Case("a time the timeout ends first", "[{ under: 10s }]",
             "panels[0].http.expect[0].under: must be shorter than the timeout, 10 s, which ends the check first"),
        Case("a connect time the tcp timeout ends first", "[{ under: 12s }]",
             "panels[0].tcp.expect[0].under: must be shorter than the timeout, 10 s, which ends the check first", source: "tcp"),
        Case("a subject of http on tcp", "[{ status: 200 }]",
             "panels[0].tcp.expect[0].status: unknown key (expected banner, under)", source: "tcp"),
        Case("a banner that is a text", "[{ banner: SSH }]",
             "panels[0].tcp.expect[0].banner: must be a mapping of keys to values", source: "tcp"),
        Case("a test given to a banner", "[{ banner: { contains: SSH }, equals: SSH }]",
             "panels[0].tcp.expect[0].equals: unknown key (expected banner, under)", source: "tcp"),
    ]

    @Test(arguments: cases)
    func aBrokenConditionNamesTheProblem(_ broken: Case) {
        #expect(deckFileProblems(broken.yaml) == ["deck.yaml:5: " + broken.problem])
    }
}
