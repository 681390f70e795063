import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Checks against a MariaDB server of the suite's own.
@Suite("MySQLSource", .mariaDB)
struct MySQLSourceTests {
    var server: TemporaryMariaDB { TemporaryMariaDB.current.get()! }

    func source(_ query: String = "select 1", url: DatabaseURL? = nil, timeout: Duration = .seconds(5),
                conditions: [QueryCondition] = []) -> MySQLSource {
        MySQLSource(url: url ?? server.url(), query: query, timeout: timeout, conditions: conditions)
    }

    @Test func theFirstRowShowsAsFieldsAndReadingsTheSameAtEveryCheck() async throws {
        let source = source("select state, id, finished, null as note from jobs order by id")
        let info = try await source.load()
        #expect(info.summary == "The query returned 2 rows")
        let version = try #require(info.fields?.first)
        #expect(version.label == "Server")
        #expect(version.value.hasPrefix("MariaDB 10."))
        #expect(info.fields?.dropFirst() == [
            Info.Field("Database", "mysql://app:***@127.0.0.1:\(server.port)/app"), Info.Field("state", "done"),
            Info.Field("note", "NULL"),
        ])
        #expect(info.readings == [Info.Field("id", "1"), Info.Field("finished", "2026-01-02 03:04:05")])
        #expect(try await source.load() == info, "the query's time is the load's, not the info")
    }

    @Test func thePasswordIsNowhereInThePanelsJSON() async throws {
        try await expectNoPasswordInPanelJSON(source: """
            mysql: { url: "mysql://app:${PASSWORD}@127.0.0.1:\(server.port)/app", query: "select state from jobs" }
            """)
    }

    @Test func conditionsThatHoldPass() async throws {
        let conditions: [QueryCondition] = [
            .column("state", .equals("done")), .column("id", .equals("1.0")), .column("state", .contains("on")),
            .rows(.below(3)), .under(.seconds(4)),
        ]
        _ = try await source("select * from jobs order by id", conditions: conditions).load()
    }

    @Test func aColumnThatFailsItsConditionIsACheckFailed() async throws {
        let error = await panelError { try await source("select id from jobs order by id", conditions: [.column("id", .above(5))]).load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason == "Column id is \"1\", expected above 5.")
    }

    @Test func aSlowQueryIsACheckFailed() async throws {
        let error = await panelError { try await source("select sleep(0.05)", conditions: [.under(.milliseconds(10))]).load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason?.hasPrefix("The query took ") == true)
    }

    @Test func aWrongPasswordIsUnauthorized() async throws {
        let error = await panelError { try await source(url: server.url(password: "wrong")).load() }
        #expect(error?.kind == .unauthorized)
        #expect(error?.failureReason?.hasPrefix("The server at 127.0.0.1:\(server.port) refused the user \"app\": Access denied for user 'app'@") == true)
    }

    @Test func aDatabaseTheUserMayNotReadIsUnauthorized() async throws {
        let error = await panelError { try await source(url: server.url(database: "other")).load() }
        #expect(error?.kind == .unauthorized)
    }

    @Test func anUnknownDatabaseIsNotFound() async throws {
        let error = await panelError { try await source(url: server.url(user: "watcher", database: "nope")).load() }
        #expect(error?.kind == .notFound)
        #expect(error?.failureReason == "The server at 127.0.0.1:\(server.port) has no database \"nope\".")
    }

    @Test func aFailingQueryShowsTheServersWords() async throws {
        let error = await panelError { try await source("select * from nope").load() }
        #expect(error?.kind == .queryFailed)
        #expect(error?.failureReason == "The server answered an error: Table 'app.nope' doesn't exist")
    }

    @Test func theQueryRunsReadOnly() async throws {
        let error = await panelError { try await source("insert into jobs values (3, 'sneaked in', null)").load() }
        #expect(error?.kind == .queryFailed)
        #expect(error?.failureReason?.contains("READ ONLY transaction") == true)
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let port = Int(try LoopbackListener.closedPort())
        let url = DatabaseURL(scheme: "mysql", user: "app", password: testPassword, host: "127.0.0.1", port: port, database: "app")
        let error = await panelError { try await source(url: url).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func anUnknownHostIsUnreachable() async throws {
        let url = DatabaseURL(scheme: "mysql", host: "no-such-host.invalid", port: 3306)
        let error = await panelError { try await source(url: url).load() }
        #expect(error?.kind == .unreachable)
    }

    @Test func aQueryLongerThanTheTimeoutTimesOut() async throws {
        let started = ContinuousClock.now
        let error = await panelError { try await source("select sleep(5)", timeout: .milliseconds(300)).load() }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aServerThatHangsUpIsUnreachable() async throws {
        let listener = try ClosingListener()
        defer { listener.close() }
        let url = DatabaseURL(scheme: "mysql", user: "app", host: "127.0.0.1", port: listener.port)
        let error = await panelError { try await source(url: url).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason?.hasPrefix("The connection to 127.0.0.1:\(listener.port) failed: ") == true)
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let url = DatabaseURL(scheme: "mysql", user: "app", host: "127.0.0.1", port: Int(port))
        let error = await panelError { try await source(url: url, timeout: .milliseconds(300)).load() }
        #expect(error?.kind == .timeout)
    }

    /// The server ends the query at the check's limit at the latest, and the connection with it.
    @Test func aCancelledCheckEndsAtOnceAndItsConnectionWithIt() async throws {
        let check = Task { try await source("select sleep(30) as slept_long", timeout: .seconds(3)).load() }
        let sessions = "select count(*) from information_schema.processlist where info like '%slept_long%' and id <> connection_id()"
        try #require(await eventually { (try? await server.administer(sessions))?.trimmed() == "1" }, "the query never began")
        let started = ContinuousClock.now
        check.cancel()
        await #expect(throws: CancellationError.self) { try await check.value }
        #expect(ContinuousClock.now - started < .seconds(1), "the query sleeps 30 s")
        #expect(await eventually(timeout: .seconds(5)) { (try? await server.administer(sessions))?.trimmed() == "0" },
                "the connection still runs")
    }
}
