import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Checks against a Redis server of the suite's own, which asks for a password.
@Suite("RedisSource", .redis)
struct RedisSourceTests {
    var server: TemporaryRedis { TemporaryRedis.current.get()! }

    func source(_ command: [String] = ["PING"], url: DatabaseURL? = nil, timeout: Duration = .seconds(5),
                conditions: [ReplyCondition] = []) -> RedisSource {
        RedisSource(url: url ?? server.url(), command: command, timeout: timeout, conditions: conditions)
    }

    @Test func aPingIsAnsweredWithTheServersVersion() async throws {
        let source = source(conditions: [.reply(.equals("PONG")), .under(.seconds(4))])
        let info = try await source.load()
        #expect(info.summary == "Answered PING")
        #expect(info.fields == [
            Info.Field("Server", "Redis 7.0.15"), Info.Field("Database", "redis://:***@127.0.0.1:\(server.port)"),
            Info.Field("Reply", "PONG"),
        ])
        #expect(info.readings == nil)
        #expect(try await source.load() == info, "the command's time is the load's, not the info")
    }

    @Test func thePasswordIsNowhereInThePanelsJSON() async throws {
        try await expectNoPasswordInPanelJSON(source: """
            redis: { url: "redis://:${PASSWORD}@127.0.0.1:\(server.port)", command: GET mode }
            """)
    }

    @Test func aNumberIsAReading() async throws {
        let info = try await source(["LLEN", "jobs"], conditions: [.reply(.below(10))]).load()
        #expect(info.readings == [Info.Field("Reply", "3")])
    }

    @Test func aUserAndADatabaseNumberAreUsed() async throws {
        let info = try await source(["GET", "mode"], url: server.url(user: "default", database: "0"),
                                    conditions: [.reply(.equals("live"))]).load()
        #expect(info.fields?.last == Info.Field("Reply", "live"))
        let empty = try await source(["GET", "mode"], url: server.url(database: "1")).load()
        #expect(empty.fields?.last == Info.Field("Reply", "nil"), "database 1 has no key mode")
    }

    @Test func aReplyThatFailsItsConditionIsACheckFailed() async throws {
        let error = await panelError { try await source(["GET", "mode"], conditions: [.reply(.equals("maintenance"))]).load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason == "The reply is \"live\", expected \"maintenance\".")
        #expect(error?.detail?.hasPrefix("redis://:***@127.0.0.1:\(server.port): GET mode: live in ") == true)
    }

    @Test func aSlowReplyIsACheckFailed() async throws {
        let error = await panelError { try await source(conditions: [.under(.nanoseconds(1))]).load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason?.hasPrefix("The reply took ") == true)
    }

    @Test func aWrongPasswordIsUnauthorized() async throws {
        let error = await panelError { try await source(url: server.url(password: "wrong")).load() }
        #expect(error?.kind == .unauthorized)
        #expect(error?.failureReason == "The server at 127.0.0.1:\(server.port) refused this client: WRONGPASS invalid username-password pair or user is disabled.")
    }

    @Test func noPasswordIsUnauthorized() async throws {
        let error = await panelError { try await source(url: server.url(password: nil)).load() }
        #expect(error?.kind == .unauthorized)
        #expect(error?.failureReason?.hasSuffix(": NOAUTH Authentication required.") == true)
    }

    @Test func aUserWhoMayNotAskForTheVersionGetsTheReply() async throws {
        try await server.administer(["ACL", "SETUSER", "pinger", "on", ">\(testPassword)", "-@all", "+ping"])
        let info = try await source(url: server.url(user: "pinger")).load()
        #expect(info.fields?.first == Info.Field("Server", "Redis"))
        #expect(info.fields?.last == Info.Field("Reply", "PONG"))
        let error = await panelError { try await source(["GET", "mode"], url: server.url(user: "pinger")).load() }
        #expect(error?.kind == .unauthorized)
        #expect(error?.failureReason?.hasPrefix("The server at 127.0.0.1:\(server.port) refused the user \"pinger\": NOPERM ") == true)
    }

    @Test func aDatabaseNumberOutOfRangeIsNotFound() async throws {
        let error = await panelError { try await source(url: server.url(database: "9")).load() }
        #expect(error?.kind == .notFound)
        #expect(error?.failureReason == "The server at 127.0.0.1:\(server.port) has no database \"9\".")
    }

    @Test func aFailingCommandShowsTheServersWords() async throws {
        let error = await panelError { try await source(["LLEN", "mode"]).load() }
        #expect(error?.kind == .queryFailed)
        #expect(error?.failureReason == "The server answered an error: WRONGTYPE Operation against a key holding the wrong kind of value")
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let port = Int(try LoopbackListener.closedPort())
        let error = await panelError { try await source(url: DatabaseURL(scheme: "redis", host: "127.0.0.1", port: port)).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func anUnknownHostIsUnreachable() async throws {
        let error = await panelError { try await source(url: DatabaseURL(scheme: "redis", host: "no-such-host.invalid", port: 6379)).load() }
        #expect(error?.kind == .unreachable)
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let started = ContinuousClock.now
        let url = DatabaseURL(scheme: "redis", host: "127.0.0.1", port: Int(port))
        let error = await panelError { try await source(url: url, timeout: .milliseconds(300)).load() }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aServerThatSpeaksAnotherProtocolIsAnInvalidResponse() async throws {
        let listener = try ClosingListener(greeting: "SSH-2.0-OpenSSH_9.2\r\n")
        defer { listener.close() }
        let error = await panelError { try await source(url: DatabaseURL(scheme: "redis", host: "127.0.0.1", port: listener.port)).load() }
        #expect(error?.kind == .invalidResponse)
        #expect(error?.detail == "redis://127.0.0.1:\(listener.port): a reply starting with \"S\"")
    }

    @Test func aServerThatHangsUpIsUnreachable() async throws {
        let listener = try ClosingListener()
        defer { listener.close() }
        let error = await panelError { try await source(url: DatabaseURL(scheme: "redis", host: "127.0.0.1", port: listener.port)).load() }
        #expect(error?.kind == .unreachable)
        // Closed or reset, as the commands sent reach the server before or after it closed.
        #expect(error?.failureReason?.hasPrefix("The connection to 127.0.0.1:\(listener.port) failed: ") == true)
    }

    @Test func aCancelledCheckEndsAtOnceAndItsConnectionWithIt() async throws {
        let check = Task { try await source(["BLPOP", "nothing", "30"], timeout: .seconds(30)).load() }
        let blocked = { try await server.administer(["INFO", "clients"]) }
        try #require(await eventually { (try? await blocked())?.contains("blocked_clients:1") == true }, "the command never began")
        let started = ContinuousClock.now
        check.cancel()
        await #expect(throws: CancellationError.self) { try await check.value }
        #expect(ContinuousClock.now - started < .seconds(1), "the command waits 30 s")
        #expect(await eventually { (try? await blocked())?.contains("blocked_clients:0") == true }, "the connection is still open")
    }
}
