import CPostgres
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One session with a PostgreSQL server (`PQconnectdbParams`), used from one thread at a time.
///
/// libpq reads the usual settings: what the URL or `key=value` string leaves out comes from
/// `PGHOST`, `PGUSER`, `PGPASSWORD`, `PGPASSFILE` (or `~/.pgpass`) and the rest, so a password
/// need never be written where others can read it.
public final class PostgresConnection {
    private let handle: OpaquePointer

    /// Settings every StateDeck session starts from; the caller's URL or string overrides them.
    /// A session whose server vanished is noticed within seconds (keepalives, and
    /// `tcp_user_timeout` for a write nobody acknowledges), not after the kernel's two hours.
    /// And the server ends a session that leaves a transaction open for 10 s: StateDeck's
    /// transactions take milliseconds, so one left open belongs to a process frozen or cut off,
    /// whose locks would otherwise hold up every other process writing the same rows.
    static let defaults: [(String, String)] = [
        ("connect_timeout", "5"),
        ("application_name", "statedeck"),
        ("keepalives_idle", "5"),
        ("keepalives_interval", "2"),
        ("keepalives_count", "2"),
        ("tcp_user_timeout", "5000"),
        ("options", "-c idle_in_transaction_session_timeout=10000"),
    ]

    /// Connects to `connection`, a `postgres://` URL or a `key=value` string (`PQconnectdbParams`
    /// with `expand_dbname`), and waits until the session is ready.
    public init(_ connection: String) throws(PostgresError) {
        let pairs = Self.defaults + [("dbname", connection)]
        let handle = Self.withCStrings(pairs.map(\.0)) { keywords in
            Self.withCStrings(pairs.map(\.1)) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle else { throw PostgresError(kind: .connection, message: "out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = PostgresError.oneLine(String(cString: PQerrorMessage(handle)))
            PQfinish(handle)
            throw PostgresError(kind: .connection, message: message)
        }
        PostgresCallbacks.ignoreNotices(on: handle)
        self.handle = handle
    }

    /// Closes the session (`PQfinish`); the server releases its locks and forgets its `LISTEN`s.
    deinit {
        PQfinish(handle)
    }

    /// Whether the session still works, as far as libpq knows (`PQstatus`).
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server process serving this session (`PQbackendPID`).
    public var serverPID: Int32 { PQbackendPID(handle) }

    /// Runs `sql`, one or more statements without parameters (`PQexec`).
    public func execute(_ sql: String) throws(PostgresError) {
        _ = try rows(of: PQexec(handle, sql))
    }

    /// Runs one statement with `$1`, `$2`… bound to `parameters` in text form, nil for NULL
    /// (`PQexecParams`), and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        let result = Self.withCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try rows(of: result)
    }

    /// Runs `body` in one transaction, committed when it returns and rolled back when it throws.
    public func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isConnected { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Reads what the server sent without waiting (`PQconsumeInput`) and returns the
    /// notifications among it (`PQnotifies`), oldest first.
    public func notifications() throws(PostgresError) -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else { throw connectionError() }
        var heard: [PostgresNotification] = []
        while let notice = PQnotifies(handle) {
            heard.append(PostgresNotification(channel: String(cString: notice.pointee.relname),
                                              payload: String(cString: notice.pointee.extra),
                                              senderPID: notice.pointee.be_pid))
            PQfreemem(notice)
        }
        return heard
    }

    /// Runs `body` on the session, and ends the session's connection if `body` has not returned
    /// within `limit` (`shutdown` of `PQsocket`, on the alarm thread): a call blocked on a server
    /// that stopped answering then fails as a broken connection. TCP alone cannot tell: a frozen
    /// proxy's kernel, or a server that is up but cut off behind a stalled middlebox, acknowledges
    /// what is sent and never answers.
    @discardableResult
    public func failing<T>(after limit: Duration, _ body: (PostgresConnection) throws(PostgresError) -> T)
        throws(PostgresError) -> T {
        let socket = PQsocket(handle)
        // Set once `body` returns, under the lock the alarm takes: no shutdown reaches the
        // descriptor after that, when it may already belong to another file.
        let returned = Locked(false)
        let alarm = AlarmThread.shared.schedule(at: .now + limit) {
            returned.withLock { returned in
                if !returned { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            }
        }
        defer {
            returned.withLock { $0 = true }
            AlarmThread.shared.cancel(alarm)
        }
        return try body(self)
    }

    /// Waits until the server sends something, `wake` becomes readable, or `timeout` passes
    /// (`poll` on `PQsocket`). Returns false when the session has no socket any more.
    public func waitForInput(timeout: Duration, wake: Int32? = nil) -> Bool {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return false }
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        if let wake { descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(min(max(timeout / .milliseconds(1), 0), Double(Int32.max)))
        _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        return true
    }

    /// The statement's rows, or the error its result or the session holds.
    private func rows(of result: OpaquePointer?) throws(PostgresError) -> PostgresRows {
        guard let result else { throw connectionError() }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresRows(result)
        default:
            let message = PostgresError.oneLine(String(cString: PQresultErrorMessage(result)))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            PQclear(result)
            // The server gives every error of its own a SQLSTATE; libpq's own (the connection
            // lost) has none, and the session may still say it is connected until its next call.
            guard isConnected, state != nil else { throw connectionError(fallback: message) }
            throw PostgresError(kind: .statement, message: message, sqlState: state)
        }
    }

    private func connectionError(fallback: String = "") -> PostgresError {
        let message = PostgresError.oneLine(String(cString: PQerrorMessage(handle)))
        return PostgresError(kind: .connection, message: message.isEmpty ? fallback : message)
    }

    /// `strings` as an array of C strings (NULL for nil) for the length of `body`.
    private static func withCStrings<T>(
        _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
        let copies = strings.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
