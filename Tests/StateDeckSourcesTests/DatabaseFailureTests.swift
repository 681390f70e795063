import StateDeck
import Testing
@testable import StateDeckSources

/// Each failure of a database check, sorted from the client's words, and the card it comes to:
/// the failures no test server can cause (no route to a network) are told here.
@Suite("DatabaseFailure")
struct DatabaseFailureTests {
    let check = DatabaseCheck(url: DatabaseURL(scheme: "postgres", user: "app", password: "hidden", host: "db", port: 5432, database: "app"),
                              request: "select 1", timeout: .seconds(3))

    @Test func eachFailureHasItsCard() {
        let kinds: [(DatabaseFailure, ErrorKind)] = [
            (.unresolved("Name or service not known"), .unreachable), (.refused, .unreachable), (.timedOut, .timeout),
            (.noRoute("Network is unreachable"), .noNetwork), (.connectFailed("SSL required"), .unreachable),
            (.unauthorized("password authentication failed"), .unauthorized), (.unknownDatabase("no app"), .notFound),
            (.queryFailed("syntax error"), .queryFailed), (.invalidAnswer("a reply starting with \"S\""), .invalidResponse),
        ]
        for (failure, kind) in kinds {
            let error = check.error(for: failure)
            #expect(error.kind == kind, "\(failure)")
            #expect(error.detail?.hasPrefix("postgres://app:***@db:5432/app: ") == true, "\(failure)")
            #expect(![error.failureReason, error.recoverySuggestion, error.detail].compactMap(\.self).joined().contains("hidden"))
        }
        #expect(check.error(for: .noRoute("Network is unreachable")).failureReason == "There is no route to db.")
    }

    @Test(arguments: [
        (#"connection to server at "10.0.0.5", port 5432 failed: FATAL:  password authentication failed for user "app""#,
         DatabaseFailure.unauthorized(#"password authentication failed for user "app""#)),
        (#"connection to server at "10.0.0.5", port 5432 failed: FATAL:  database "shop" does not exist"#,
         .unknownDatabase(#"database "shop" does not exist"#)),
        (#"connection to server at "10.0.0.5", port 5432 failed: FATAL:  role "monitor" does not exist"#,
         .unauthorized(#"role "monitor" does not exist"#)),
        (#"connection to server at "10.0.0.5", port 5432 failed: FATAL:  no pg_hba.conf entry for host "10.0.0.9""#,
         .unauthorized(#"no pg_hba.conf entry for host "10.0.0.9""#)),
        (#"connection to server at "10.0.0.5", port 5432 failed: Connection refused Is the server running on that host?"#, .refused),
        (#"connection to server at "10.0.0.5", port 5432 failed: Network is unreachable"#, .noRoute("Network is unreachable")),
        (#"connection to server at "10.0.0.5", port 5432 failed: server closed the connection unexpectedly"#,
         .connectFailed("server closed the connection unexpectedly")),
    ])
    func libpqsWordsAreSorted(words: String, failure: DatabaseFailure) {
        #expect(PostgresConversation.connectionFailure(words, needsPassword: false) == failure)
    }

    @Test func aPasswordAskedForAndNotGivenIsUnauthorized() {
        #expect(PostgresConversation.connectionFailure("fe_sendauth: no password supplied", needsPassword: true)
            == .unauthorized("fe_sendauth: no password supplied"))
    }

    @Test(arguments: [
        (1045, "Access denied for user 'app'@'10.0.0.9' (using password: YES)", DatabaseFailure.unauthorized("Access denied for user 'app'@'10.0.0.9' (using password: YES)")),
        (1049, "Unknown database 'shop'", .unknownDatabase("Unknown database 'shop'")),
        (1146, "Table 'shop.orders' doesn't exist", .queryFailed("Table 'shop.orders' doesn't exist")),
        (1969, "Query execution was interrupted (max_statement_time exceeded)", .timedOut),
        (2002, "Can't connect to server on '10.0.0.5' (111)", .refused),
        (2003, "Can't connect to server on '10.0.0.5' (101)", .noRoute("Can't connect to server on '10.0.0.5' (101)")),
        (2013, "Lost connection to server at 'handshake: reading initial communication packet', system error: 0",
         .connectFailed("Lost connection to server at 'handshake: reading initial communication packet', system error: 0")),
    ] as [(UInt32, String, DatabaseFailure)])
    func mariaDBsErrorsAreSorted(code: UInt32, words: String, failure: DatabaseFailure) {
        #expect(MySQLConversation.failure(code: code, words: words) == failure)
    }

    @Test func versionsAreNamed() {
        #expect(MySQLConversation.version("10.11.19-MariaDB-0+deb12u1") == "MariaDB 10.11.19")
        #expect(MySQLConversation.version("5.5.5-10.6.12-MariaDB") == "MariaDB 10.6.12")
        #expect(MySQLConversation.version("8.0.36") == "MySQL 8.0.36")
    }
}
