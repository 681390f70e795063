import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Checks against a PostgreSQL server of the suite's own that asks for passwords.
@Suite("PostgresSource", .postgres)
struct PostgresSourceTests {
    var server: TemporaryPostgresWithPasswords { TemporaryPostgresWithPasswords.current.get()! }

    func source(_ query: String = "select 1", url: DatabaseURL? = nil, timeout: Duration = .seconds(5),
                conditions: [QueryCondition] = []) -> PostgresSource {
        PostgresSource(url: url ?? server.url(), query: query, timeout: timeout, conditions: conditions)
    }

    @Test func theFirstRowShowsAsFieldsAndReadingsTheSameAtEveryCheck() async throws {
        let source = source("select state, id, finished, urgent, null as note from jobs order by id")
        let info = try await source.load()
        #expect(info.summary == "The query returned 2 rows")
        #expect(info.fields == [
            Info.Field("Server", "PostgreSQL 15.18"), Info.Field("Database", "postgres://app:***@127.0.0.1:\(server.port)/app"),
            Info.Field("state", "done"), Info.Field("urgent", "false"), Info.Field("note", "NULL"),
        ])
        #expect(info.readings == [Info.Field("id", "1"), Info.Field("finished", "2026-01-02 03:04:05+00")])
        #expect(try await source.load() == info, "the query's time is the load's, not the info")
    }

    @Test func thePasswordIsNowhereInThePanelsJSON() async throws {
        try await expectNoPasswordInPanelJSON(source: """
            postgres: { url: "postgres://app:${PASSWORD}@127.0.0.1:\(server.port)/app", query: "select state from jobs" }
            """)
    }

    @Test func conditionsThatHoldPass() async throws {
        let conditions: [QueryCondition] = [
            .column("state", .equals("done")), .column("id", .below(2)), .column("urgent", .equals("false")),
            .column("state", .matches(try TextPattern("^d"))), .rows(.above(1)), .rows(.equals("2")), .under(.seconds(4)),
        ]
        _ = try await source("select * from jobs order by id", conditions: conditions).load()
    }

    @Test func aQueryWithoutRowsSaysSo() async throws {
        let info = try await source("select * from jobs where id > 10").load()
        #expect(info.summary == "The query returned no rows")
    }

    @Test func aColumnThatFailsItsConditionIsACheckFailed() async throws {
        let error = await panelError { try await source("select state from jobs order by id", conditions: [.column("state", .equals("queued"))]).load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason == "Column state is \"done\", expected \"queued\".")
        #expect(error?.detail?.hasPrefix("postgres://app:***@127.0.0.1:\(server.port)/app: 2 rows: state = done in ") == true)
    }

    @Test func aMissingColumnIsACheckFailed() async throws {
        let error = await panelError { try await source(conditions: [.column("state", .equals("done"))]).load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason == "The first row has no column \"state\"; it has \"?column?\".")
    }

    @Test func tooFewRowsIsACheckFailed() async throws {
        let error = await panelError { try await source("select * from jobs where id > 10", conditions: [.rows(.above(0))]).load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason == "The query returned 0 rows, expected above 0.")
    }

    @Test func aSlowQueryIsACheckFailed() async throws {
        let error = await panelError { try await source("select pg_sleep(0.05)", conditions: [.under(.milliseconds(10))]).load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason?.hasPrefix("The query took ") == true)
    }

    @Test func aWrongPasswordIsUnauthorized() async throws {
        let error = await panelError { try await source(url: server.url(password: "wrong")).load() }
        #expect(error?.kind == .unauthorized)
        #expect(error?.failureReason == "The server at 127.0.0.1:\(server.port) refused the user \"app\": password authentication failed for user \"app\"")
    }

    @Test func noPasswordIsUnauthorized() async throws {
        let error = await panelError { try await source(url: server.url(password: nil)).load() }
        #expect(error?.kind == .unauthorized)
    }

    @Test func anUnknownDatabaseIsNotFound() async throws {
        let error = await panelError { try await source(url: server.url(database: "nope")).load() }
        #expect(error?.kind == .notFound)
        #expect(error?.failureReason == "The server at 127.0.0.1:\(server.port) has no database \"nope\".")
    }

    @Test func aFailingQueryShowsTheServersWords() async throws {
        let error = await panelError { try await source("select * from nope").load() }
        #expect(error?.kind == .queryFailed)
        #expect(error?.failureReason == "The server answered an error: ERROR: relation \"nope\" does not exist LINE 1: select * from nope ^")
    }

    @Test func aCopyIsNoQuery() async throws {
        let error = await panelError { try await source("copy jobs to stdout").load() }
        #expect(error?.kind == .queryFailed)
        #expect(error?.failureReason == "The server answered an error: COPY moves data rather than returning rows: a check cannot run it")
    }

    @Test func theQueryRunsReadOnly() async throws {
        let error = await panelError { try await source("insert into jobs values (3, 'sneaked in')").load() }
        #expect(error?.kind == .queryFailed)
        #expect(error?.failureReason?.contains("read-only transaction") == true)
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let port = Int(try LoopbackListener.closedPort())
        let url = DatabaseURL(scheme: "postgres", user: "app", password: testPassword, host: "127.0.0.1", port: port, database: "app")
        let error = await panelError { try await source(url: url).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func anUnknownHostIsUnreachable() async throws {
        let url = DatabaseURL(scheme: "postgres", host: "no-such-host.invalid", port: 5432)
        let error = await panelError { try await source(url: url).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "The name no-such-host.invalid does not resolve.")
    }

    @Test func aQueryLongerThanTheTimeoutTimesOut() async throws {
        let started = ContinuousClock.now
        let error = await panelError { try await source("select pg_sleep(5)", timeout: .milliseconds(300)).load() }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aConnectionThatFailsOtherwiseIsUnreachable() async throws {
        let url = DatabaseURL(scheme: "postgres", user: "app", password: testPassword, host: "127.0.0.1", port: server.port,
                              database: "app", parameters: [.init(name: "sslmode", value: "require")])
        let error = await panelError { try await source(url: url).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "The connection to 127.0.0.1:\(server.port) failed: server does not support SSL, but SSL was required")
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let url = DatabaseURL(scheme: "postgres", user: "app", host: "127.0.0.1", port: Int(port))
        let error = await panelError { try await source(url: url, timeout: .milliseconds(300)).load() }
        #expect(error?.kind == .timeout)
    }

    @Test func aCancelledCheckEndsAtOnceAndItsSessionWithIt() async throws {
        let check = Task { try await source("select pg_sleep(30) as slept_long", timeout: .seconds(30)).load() }
        let sessions = "select count(*) from pg_stat_activity where query like '%slept_long%' and pid <> pg_backend_pid()"
        try #require(await eventually { (try? await server.administer(sessions))?.trimmed() == "1" }, "the query never began")
        let started = ContinuousClock.now
        check.cancel()
        await #expect(throws: CancellationError.self) { try await check.value }
        #expect(ContinuousClock.now - started < .seconds(1), "the query sleeps 30 s")
        #expect(await eventually { (try? await server.administer(sessions))?.trimmed() == "0" }, "the session still runs")
    }
}
