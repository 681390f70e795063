import Postgres
import Testing
import TestSupport

/// libpq's sessions against a real PostgreSQL of the suite's own.
@Suite(.serialized)
struct PostgresConnectionTests {
    @Test func statementsTakeParametersAndReturnRowsInTextForm() async throws {
        try await TemporaryPostgres.with { server in
            let session = try PostgresConnection(server.url)
            try session.execute("CREATE TABLE notes (id bigserial PRIMARY KEY, body text, done boolean)")
            let inserted = try session.query("INSERT INTO notes (body, done) VALUES ($1, $2), ($3, NULL) RETURNING id",
                                              ["first 'quoted'", "true", nil])
            #expect(inserted.count == 2)
            #expect(inserted.integer(0, 0) == 1)
            let rows = try session.query("SELECT body, done FROM notes ORDER BY id")
            #expect(rows.count == 2)
            #expect(rows[0, 0] == "first 'quoted'")
            #expect(rows.boolean(0, 1) == true)
            #expect(rows[1, 0] == nil)
            #expect(rows[1, 1] == nil)
            #expect(try session.query("UPDATE notes SET done = false").affected == 2)
        }
    }

    @Test func aRefusedStatementSaysWhyAndLeavesTheSessionUsable() async throws {
        try await TemporaryPostgres.with { server in
            let session = try PostgresConnection(server.url)
            try session.execute("CREATE TABLE once (key text PRIMARY KEY)")
            try session.query("INSERT INTO once VALUES ($1)", ["a"])
            let error = try #require(throws: PostgresError.self) {
                try session.query("INSERT INTO once VALUES ($1)", ["a"])
            }
            #expect(error.kind == .statement)
            #expect(error.sqlState == "23505")
            #expect(error.message.contains("duplicate key"))
            #expect(!error.message.contains("\n"))
            #expect(try session.query("SELECT count(*) FROM once").integer(0, 0) == 1)
        }
    }

    @Test func aTransactionThatThrowsLeavesNothing() async throws {
        try await TemporaryPostgres.with { server in
            let session = try PostgresConnection(server.url)
            try session.execute("CREATE TABLE t (n int)")
            #expect(throws: PostgresError.self) {
                try session.transaction { () throws(PostgresError) in
                    try session.query("INSERT INTO t VALUES (1)")
                    try session.query("INSERT INTO t VALUES ('not a number')")
                }
            }
            #expect(try session.query("SELECT count(*) FROM t").integer(0, 0) == 0)
        }
    }

    @Test func aListenerHearsNotificationsInOrder() async throws {
        try await TemporaryPostgres.with { server in
            let listener = try PostgresConnection(server.url)
            let sender = try PostgresConnection(server.url)
            try listener.execute("LISTEN changes")
            try sender.query("SELECT pg_notify('changes', $1)", ["1"])
            try sender.transaction { () throws(PostgresError) in
                try sender.query("SELECT pg_notify('changes', $1)", ["2"])
                try sender.query("SELECT pg_notify('elsewhere', $1)", ["x"])
            }
            var heard: [PostgresNotification] = []
            let deadline = ContinuousClock.now + .seconds(5)
            while heard.count < 2, ContinuousClock.now < deadline {
                #expect(listener.waitForInput(timeout: .milliseconds(200)))
                heard += try listener.notifications()
            }
            #expect(heard.map(\.payload) == ["1", "2"])
            #expect(heard.allSatisfy { $0.channel == "changes" && $0.senderPID == sender.serverPID })
        }
    }

    @Test func anUnreachableServerIsAConnectionErrorWithoutThePassword() async throws {
        let server = try await TemporaryPostgres()
        let url = server.url.replacingOccurrences(of: "statedeck@", with: "statedeck:s3cret@")
        await server.remove()
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(url) }
        #expect(error.kind == .connection)
        #expect(error.message.contains("127.0.0.1"))
        #expect(!error.message.contains("s3cret"))
    }

    @Test func aStoppedServerBreaksTheSessionAndAnAdvisoryLockGoesWithIt() async throws {
        try await TemporaryPostgres.with { server in
            let holder = try PostgresConnection(server.url)
            let other = try PostgresConnection(server.url)
            #expect(try holder.query("SELECT pg_try_advisory_lock(42)").boolean(0, 0) == true)
            #expect(try other.query("SELECT pg_try_advisory_lock(42)").boolean(0, 0) == false)
            try await server.stop()
            let error = try #require(throws: PostgresError.self) { try holder.query("SELECT 1") }
            #expect(error.kind == .connection)
            #expect(!holder.isConnected)
            try await server.start()
            let fresh = try PostgresConnection(server.url)
            #expect(try fresh.query("SELECT pg_try_advisory_lock(42)").boolean(0, 0) == true)
        }
    }
}
