import StateDeck
import Testing
@testable import StateDeckSources

/// `postgres`, `mysql` and `redis` in a deck file: every key, and every mistake in one.
@Suite("DatabaseSourceReading")
struct DatabaseSourceReadingTests {
    func parse(_ yaml: String, environment: [String: String] = [:]) throws -> DeckFile {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: "/stack", environment: environment)
    }

    @Test func everyPostgresKeyIsRead() throws {
        let deck = try parse("""
            panels:
              - id: db
                postgres:
                  url: "postgres://app:${PGPASSWORD}@db.internal/app?sslmode=require&connect_timeout=3"
                  query: select status, lag from health
                  timeout: 3s
                  expect:
                    - { column: status, equals: ok }
                    - { column: lag, below: "${LAG}" }
                    - { column: version, matches: "^15\\\\." }
                    - { column: role, contains: primary }
                    - { column: lag, above: -1 }
                    - { rows: { above: 0 } }
                    - { rows: { equals: 1 } }
                    - { rows: { below: 2 } }
                    - { under: 200ms }
            """, environment: ["PGPASSWORD": "p@ss/w:rd", "LAG": "30"])
        let source = try #require(deck.panels[0].source.postgres)
        let url = DatabaseURL(scheme: "postgres", user: "app", password: "p@ss/w:rd", host: "db.internal", port: 5432, database: "app",
                              parameters: [.init(name: "sslmode", value: "require"), .init(name: "connect_timeout", value: "3")])
        #expect(source == PostgresSource(url: url, query: "select status, lag from health", timeout: .seconds(3), conditions: [
            .column("status", .equals("ok")), .column("lag", .below(30)), .column("version", .matches(try TextPattern("^15\\."))),
            .column("role", .contains("primary")), .column("lag", .above(-1)), .rows(.above(0)), .rows(.equals("1")),
            .rows(.below(2)), .under(.milliseconds(200)),
        ]))
        #expect(source.url.masked == "postgres://app:***@db.internal:5432/app?sslmode=require&connect_timeout=3")
        #expect(deck.panels[0].source.kind == "postgres")
    }

    @Test func aPostgresSourceHasDefaults() throws {
        let deck = try parse("""
            defaults: { timeout: 7s }
            panels: [{ id: db, postgres: { url: "postgresql://[::1]:6432" } }]
            """)
        let source = try #require(deck.panels[0].source.postgres)
        #expect(source == PostgresSource(url: DatabaseURL(scheme: "postgresql", host: "::1", port: 6432), query: "select 1",
                                         timeout: .seconds(7)))
        #expect(source.url.masked == "postgresql://[::1]:6432")
    }

    @Test func everyMySQLKeyIsRead() throws {
        let deck = try parse("""
            panels:
              - id: db
                mysql:
                  url: "mariadb://monitor:${PASS}@10.0.0.5:3307/shop"
                  query: select count(*) as orders from orders
                  timeout: 4s
                  expect: [{ column: orders, above: 0 }, { under: 1s }]
            """, environment: ["PASS": "100%sure"])
        let source = try #require(deck.panels[0].source.mysql)
        let url = DatabaseURL(scheme: "mariadb", user: "monitor", password: "100%sure", host: "10.0.0.5", port: 3307, database: "shop")
        #expect(source == MySQLSource(url: url, query: "select count(*) as orders from orders", timeout: .seconds(4),
                                      conditions: [.column("orders", .above(0)), .under(.seconds(1))]))
        #expect(try #require(try parse("panels: [{ id: db, mysql: { url: \"mysql://localhost\" } }]").panels[0].source.mysql)
            == MySQLSource(url: DatabaseURL(scheme: "mysql", host: "localhost", port: 3306), timeout: .seconds(10)))
    }

    @Test func everyRedisKeyIsRead() throws {
        let deck = try parse("""
            panels:
              - id: cache
                redis:
                  url: "redis://default:${REDIS_PASSWORD}@cache:6380/2"
                  command: LLEN  jobs
                  timeout: 2s
                  expect: [{ reply: { below: 1000 } }, { reply: { matches: "^[0-9]+$" } }, { under: 50ms }]
              - id: mode
                redis: { url: "redis://cache", command: [GET, "the mode"], expect: [{ reply: { equals: live } }] }
              - id: ping
                redis: { url: "redis://cache" }
            """, environment: ["REDIS_PASSWORD": "secret"])
        let url = DatabaseURL(scheme: "redis", user: "default", password: "secret", host: "cache", port: 6380, database: "2")
        #expect(deck.panels[0].source.redis == RedisSource(url: url, command: ["LLEN", "jobs"], timeout: .seconds(2), conditions: [
            .reply(.below(1000)), .reply(.matches(try TextPattern("^[0-9]+$"))), .under(.milliseconds(50)),
        ]))
        let cache = DatabaseURL(scheme: "redis", host: "cache", port: 6379)
        #expect(deck.panels[1].source.redis == RedisSource(url: cache, command: ["GET", "the mode"], conditions: [.reply(.equals("live"))]))
        #expect(deck.panels[2].source.redis == RedisSource(url: cache, command: ["PING"]))
    }

    @Test func aProblemWithAURLNeverShowsItsPassword() {
        for (kind, url) in [("postgres", "postgres://app:${SECRET}@db:99999/app"), ("postgres", "postgres://app:${SECRET}@db/app?pasword=x"),
                            ("mysql", "http://app:${SECRET}@db"), ("mysql", "mysql://app:${SECRET}@/app"),
                            ("redis", "redis://:${SECRET}@cache/zero")] {
            do {
                _ = try DeckFile.parse("panels: [{ id: db, \(kind): { url: \"\(url)\" } }]", file: "deck.yaml", folder: "/stack",
                                       environment: ["SECRET": "hunter2"])
                Issue.record("\(url) was read")
            } catch {
                let problems = error.problems.map(\.description)
                #expect(problems.count == 1 && !problems.joined().contains("hunter2"), "\(problems)")
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let source: String
        let problem: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "another scheme", source: "postgres: { url: \"mysql://db/app\" }",
             problem: "deck.yaml:1: panels[0].postgres.url: must be a URL like postgres://user:${PASSWORD}@host:5432"),
        Case(name: "no host", source: "mysql: { url: \"mysql://app:pw@:3306/app\" }",
             problem: "deck.yaml:1: panels[0].mysql.url: needs a host, like mysql://user:${PASSWORD}@host:3306"),
        Case(name: "a port out of range", source: "redis: { url: \"redis://cache:70000\" }",
             problem: "deck.yaml:1: panels[0].redis.url: has no port from 1 to 65535 after cache:"),
        Case(name: "a setting libpq does not know", source: "postgres: { url: \"postgres://db/app?sslmod=require\" }",
             problem: "deck.yaml:1: panels[0].postgres.url: has sslmod in its query, which is no libpq setting (did you mean sslmode?), such as sslmode or connect_timeout"),
        Case(name: "a password as a setting", source: "postgres: { url: \"postgres://db/app?password=x\" }",
             problem: "deck.yaml:1: panels[0].postgres.url: sets password in its query: write the user, password, host, port and database in the URL itself; StateDeck sets the rest"),
        Case(name: "a setting without a value", source: "postgres: { url: \"postgres://db/app?sslmode\" }",
             problem: "deck.yaml:1: panels[0].postgres.url: has sslmode in its query: write name=value"),
        Case(name: "settings of a mysql url", source: "mysql: { url: \"mysql://db/app?ssl=true\" }",
             problem: "deck.yaml:1: panels[0].mysql.url: takes no settings after ?: give the user, password, host, port and database in the URL itself"),
        Case(name: "a redis database that is no number", source: "redis: { url: \"redis://cache/sessions\" }",
             problem: "deck.yaml:1: panels[0].redis.url: ends in /sessions, which is no database number: write one such as /0"),
        Case(name: "no url", source: "postgres: { query: select 1 }", problem: "deck.yaml:1: panels[0].postgres.url: is required"),
        Case(name: "an unknown key", source: "mysql: { url: \"mysql://db\", database: app }",
             problem: "deck.yaml:1: panels[0].mysql.database: unknown key (expected url, query, timeout, expect)"),
        Case(name: "an empty query", source: "postgres: { url: \"postgres://db\", query: \" \" }",
             problem: "deck.yaml:1: panels[0].postgres.query: must not be empty"),
        Case(name: "an empty command", source: "redis: { url: \"redis://cache\", command: [] }",
             problem: "deck.yaml:1: panels[0].redis.command: needs at least the command"),
        Case(name: "a column without a test", source: "postgres: { url: \"postgres://db\", expect: [{ column: status }] }",
             problem: "deck.yaml:1: panels[0].postgres.expect[0]: needs a test of column: one of equals, contains, matches, below, above"),
        Case(name: "a column with two tests", source: "postgres: { url: \"postgres://db\", expect: [{ column: lag, below: 3, above: 1 }] }",
             problem: "deck.yaml:1: panels[0].postgres.expect[0].above: a condition has one test, and this one already has below"),
        Case(name: "a column compared to no number", source: "mysql: { url: \"mysql://db\", expect: [{ column: lag, below: soon }] }",
             problem: "deck.yaml:1: panels[0].mysql.expect[0].below: must be a number, not soon"),
        Case(name: "rows written flat", source: "postgres: { url: \"postgres://db\", expect: [{ rows: 1 }] }",
             problem: "deck.yaml:1: panels[0].postgres.expect[0].rows: must be a mapping of keys to values"),
        Case(name: "rows matched as text", source: "postgres: { url: \"postgres://db\", expect: [{ rows: { matches: x } }] }",
             problem: "deck.yaml:1: panels[0].postgres.expect[0].rows.matches: unknown key (expected equals, below, above)"),
        Case(name: "rows without a test", source: "postgres: { url: \"postgres://db\", expect: [{ rows: {} }] }",
             problem: "deck.yaml:1: panels[0].postgres.expect[0].rows: needs a test: one of equals, below, above"),
        Case(name: "a fraction of a row", source: "postgres: { url: \"postgres://db\", expect: [{ rows: { equals: 1.5 } }] }",
             problem: "deck.yaml:1: panels[0].postgres.expect[0].rows.equals: must be a whole number from 0 to 9223372036854775807, not 1.5"),
        Case(name: "a test beside a reply", source: "redis: { url: \"redis://cache\", expect: [{ reply: { equals: PONG }, equals: PONG }] }",
             problem: "deck.yaml:1: panels[0].redis.expect[0].equals: unknown key (expected reply, under)"),
        Case(name: "a reply without a test", source: "redis: { url: \"redis://cache\", expect: [{ reply: { is: PONG } }] }",
             problem: "deck.yaml:1: panels[0].redis.expect[0].reply.is: unknown key (expected equals, contains, matches, below, above)"),
        Case(name: "a reply with two tests", source: "redis: { url: \"redis://cache\", expect: [{ reply: { equals: PONG, contains: P } }] }",
             problem: "deck.yaml:1: panels[0].redis.expect[0].reply.contains: a condition has one test, and this one already has equals"),
        Case(name: "a pattern that does not compile", source: "redis: { url: \"redis://cache\", expect: [{ reply: { matches: \"(\" } }] }",
             problem: #"deck.yaml:1: panels[0].redis.expect[0].reply.matches: "(" is not a regular expression: missing closing parenthesis at offset 1"#),
        Case(name: "a column of the redis source", source: "redis: { url: \"redis://cache\", expect: [{ column: x }] }",
             problem: "deck.yaml:1: panels[0].redis.expect[0].column: unknown key (expected reply, under)"),
        Case(name: "an under as long as the timeout", source: "mysql: { url: \"mysql://db\", timeout: 1s, expect: [{ under: 1s }] }",
             problem: "deck.yaml:1: panels[0].mysql.expect[0].under: must be shorter than the timeout, 1 s, which ends the check first"),
    ]

    @Test(arguments: cases)
    func aMistakeIsReportedAtItsKeyAndLine(_ testCase: Case) {
        #expect(deckFileProblems("panels: [{ id: db, \(testCase.source) }]") == [testCase.problem])
    }
}
