import CEpoll
import CMariaDB
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One mysql check on the `ProbeLoop`, through MariaDB Connector/C's non-blocking calls: the
/// connection (`mysql_real_connect_start`), the query (`mysql_real_query_start`) and its result
/// (`mysql_store_result_start`), each resumed (`…_cont`) when its socket is ready, all before
/// one deadline. Each address is tried in turn until one connects. The outcome is nil when the
/// check was cancelled; the connection is closed (`mysql_close`) whatever it came to.
///
/// Sendable for `outcome`, which a cancelling task may settle; the rest is the loop's thread's.
final class MySQLConversation: DeadlineProbe, @unchecked Sendable {
    let outcome = FirstResult<Result<QueryResult, DatabaseFailure>?>()
    private let url: DatabaseURL
    private let addresses: [SocketAddress]
    private let query: String
    let deadline: ContinuousClock.Instant
    var token: UInt64?
    private var connection: UnsafeMutablePointer<MYSQL>?
    /// The socket watched for the connection, -1 for none.
    private var socket: Int32 = -1
    private var step = Step.connecting
    private var next = 0
    private var querySentAt = ContinuousClock.now
    /// The C strings handed to the connection's calls, freed with it.
    private var keptStrings: [UnsafeMutablePointer<CChar>] = []
    /// The most telling failure of the addresses tried so far.
    private var failure = DatabaseFailure.timedOut

    /// The call under way, which a ready socket resumes.
    private enum Step {
        case connecting, querying, storing
    }

    init(url: DatabaseURL, addresses: [SocketAddress], query: String, timeout: Duration) {
        self.url = url
        self.addresses = addresses
        self.query = query
        deadline = .now + timeout
    }

    func begin(on loop: ProbeLoop) {
        connectNext(on: loop)
    }

    func socketReady(_ socket: Int32, events: UInt32, on loop: ProbeLoop) {
        var ready: Int32 = 0
        if events & (EPOLLIN.rawValue | EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { ready |= MYSQL_WAIT_READ }
        if events & (EPOLLOUT.rawValue | EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { ready |= MYSQL_WAIT_WRITE }
        if events & EPOLLPRI.rawValue != 0 { ready |= MYSQL_WAIT_EXCEPT }
        resume(ready, on: loop)
    }

    func deadlineCame(on loop: ProbeLoop) {
        settle(.failure(.timedOut), on: loop)
    }

    /// Starts connecting to the next address, with a connection of its own whose transactions
    /// are all read-only; settles the most telling failure when none is left.
    private func connectNext(on loop: ProbeLoop) {
        release(on: loop)
        guard next < addresses.count, ContinuousClock.now < deadline, let connection = mysql_init(nil) else {
            return settle(.failure(failure), on: loop)
        }
        let address = addresses[next]
        next += 1
        self.connection = connection
        step = .connecting
        mysql_options(connection, MYSQL_OPT_NONBLOCK, nil)
        mysql_options(connection, MYSQL_INIT_COMMAND, "SET SESSION TRANSACTION READ ONLY")
        mysql_options(connection, MYSQL_SET_CHARSET_NAME, "utf8mb4")
        var connected: UnsafeMutablePointer<MYSQL>?
        let status = mysql_real_connect_start(&connected, connection, kept(address.numericHost), kept(url.user), kept(url.password),
                                              kept(url.database), UInt32(url.port), nil, 0)
        proceed(status, done: connected != nil, on: loop)
    }

    /// Resumes the call under way with the socket's `ready` events (`MYSQL_WAIT_READ` and the rest).
    private func resume(_ ready: Int32, on loop: ProbeLoop) {
        guard let connection else { return }
        switch step {
        case .connecting:
            var connected: UnsafeMutablePointer<MYSQL>?
            let status = mysql_real_connect_cont(&connected, connection, ready)
            proceed(status, done: connected != nil, on: loop)
        case .querying:
            var code: Int32 = 0
            let status = mysql_real_query_cont(&code, connection, ready)
            proceed(status, done: code == 0, on: loop)
        case .storing:
            var rows: UnsafeMutablePointer<MYSQL_RES>?
            let status = mysql_store_result_cont(&rows, connection, ready)
            if status == 0 { return stored(rows, on: loop) }
            wait(for: status, on: loop)
        }
    }

    /// After a call of the current step: waits for what it asks (`status`, nonzero), or goes on
    /// to the next step, `done` telling whether the call succeeded.
    private func proceed(_ status: Int32, done: Bool, on loop: ProbeLoop) {
        guard status == 0 else { return wait(for: status, on: loop) }
        guard let connection else { return }
        guard done else {
            let failure = Self.failure(code: mysql_errno(connection), words: String(cString: mysql_error(connection)))
            guard step == .connecting, failure == .refused || failure == .timedOut || Self.isConnectionFailure(failure) else {
                return settle(.failure(failure), on: loop)
            }
            if self.failure != .refused { self.failure = failure }
            return connectNext(on: loop)
        }
        switch step {
        case .connecting:
            step = .querying
            querySentAt = .now
            var code: Int32 = 0
            let statement = limited(query, on: connection)
            let status = mysql_real_query_start(&code, connection, kept(statement), UInt(statement.utf8.count))
            proceed(status, done: code == 0, on: loop)
        case .querying:
            step = .storing
            var rows: UnsafeMutablePointer<MYSQL_RES>?
            let status = mysql_store_result_start(&rows, connection)
            if status == 0 { return stored(rows, on: loop) }
            wait(for: status, on: loop)
        case .storing:
            break
        }
    }

    /// The query's result came: its first row, or the error that ended it.
    private func stored(_ rows: UnsafeMutablePointer<MYSQL_RES>?, on loop: ProbeLoop) {
        guard let connection else { return }
        let time = ContinuousClock.now - querySentAt
        let version = Self.version(String(cString: mysql_get_server_info(connection)))
        guard let rows else {
            guard mysql_field_count(connection) == 0 else {
                return settle(.failure(Self.failure(code: mysql_errno(connection), words: String(cString: mysql_error(connection)))), on: loop)
            }
            return settle(.success(QueryResult(version: version, columns: [], rowCount: 0, time: time)), on: loop)
        }
        defer { mysql_free_result(rows) }
        var columns: [QueryResult.Column] = []
        if let row = mysql_fetch_row(rows), let lengths = mysql_fetch_lengths(rows), let fields = mysql_fetch_fields(rows) {
            columns = (0..<Int(mysql_num_fields(rows))).map { index in
                let field = fields[index]
                let value = row[index].map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(lengths[index])), as: UTF8.self) }
                return QueryResult.Column(name: String(cString: field.name), value: value,
                                          isMeasurement: Self.measurementTypes.contains(field.type))
            }
        }
        settle(.success(QueryResult(version: version, columns: columns, rowCount: Int(mysql_num_rows(rows)), time: time)), on: loop)
    }

    /// `query` with the check's limit set for it on a MariaDB server, which then ends it by itself
    /// when the check gives up on it (MySQL has no such limit for every statement).
    private func limited(_ query: String, on connection: UnsafeMutablePointer<MYSQL>) -> String {
        guard String(cString: mysql_get_server_info(connection)).contains("MariaDB") else { return query }
        let seconds = Double((deadline - ContinuousClock.now) / .milliseconds(1)).rounded(.up) / 1000
        return "SET STATEMENT max_statement_time=\(max(seconds, 0.001)) FOR \(query)"
    }

    /// Watches the connection's socket for what the library waits for (`status`).
    private func wait(for status: Int32, on loop: ProbeLoop) {
        guard let connection, let token else { return }
        if socket >= 0 { loop.unwatch(socket) }
        socket = Int32(mysql_get_socket(connection))
        var events: UInt32 = 0
        if status & MYSQL_WAIT_READ != 0 { events |= EPOLLIN.rawValue }
        if status & MYSQL_WAIT_WRITE != 0 { events |= EPOLLOUT.rawValue }
        if status & MYSQL_WAIT_EXCEPT != 0 { events |= EPOLLPRI.rawValue }
        let code = socket < 0 ? EBADF : loop.watch(socket, for: events, by: token)
        if code != 0 { settle(.failure(.connectFailed(String(errno: code))), on: loop) }
    }

    /// Closes the connection (`mysql_close`, which closes its socket), in the middle of a call
    /// or not.
    func release(on loop: ProbeLoop) {
        if socket >= 0 { loop.unwatch(socket) }
        socket = -1
        connection.map(mysql_close)
        connection = nil
        keptStrings.forEach { free($0) }
        keptStrings = []
    }

    /// A copy of `text` that lasts as long as the connection: a call started reads its
    /// arguments again each time it is resumed.
    private func kept(_ text: String?) -> UnsafeMutablePointer<CChar>? {
        guard let copy = text.flatMap({ strdup($0) }) else { return nil }
        keptStrings.append(copy)
        return copy
    }

    /// Numbers (decimal, integers, floats, bits) and times (date, time, datetime, timestamp,
    /// year).
    private static let measurementTypes: Set<enum_field_types> = [
        MYSQL_TYPE_DECIMAL, MYSQL_TYPE_NEWDECIMAL, MYSQL_TYPE_TINY, MYSQL_TYPE_SHORT, MYSQL_TYPE_LONG, MYSQL_TYPE_INT24,
        MYSQL_TYPE_LONGLONG, MYSQL_TYPE_FLOAT, MYSQL_TYPE_DOUBLE, MYSQL_TYPE_DATE, MYSQL_TYPE_NEWDATE, MYSQL_TYPE_TIME,
        MYSQL_TYPE_TIME2, MYSQL_TYPE_DATETIME, MYSQL_TYPE_DATETIME2, MYSQL_TYPE_TIMESTAMP, MYSQL_TYPE_TIMESTAMP2, MYSQL_TYPE_YEAR,
    ]

    /// "MariaDB 10.11.19" of "10.11.19-MariaDB-0+deb12u1" (or of "5.5.5-10.11.19-MariaDB…",
    /// as older clients are told), "MySQL 8.0.36" of "8.0.36".
    static func version(_ announced: String) -> String {
        let text = announced.hasPrefix("5.5.5-") ? String(announced.dropFirst(6)) : announced
        let number = text.split(separator: "-").first.map(String.init) ?? text
        return (text.contains("MariaDB") ? "MariaDB " : "MySQL ") + number
    }

    /// The failure an error (`mysql_errno`, `mysql_error`) comes to.
    static func failure(code: UInt32, words: String) -> DatabaseFailure {
        switch Int32(code) {
        case ER_ACCESS_DENIED_ERROR, ER_DBACCESS_DENIED_ERROR, ER_HOST_NOT_PRIVILEGED, ER_HOST_IS_BLOCKED,
             ER_SPECIFIC_ACCESS_DENIED_ERROR, ER_TABLEACCESS_DENIED_ERROR, ER_COLUMNACCESS_DENIED_ERROR:
            return .unauthorized(words)
        case ER_BAD_DB_ERROR: return .unknownDatabase(words)
        case ER_STATEMENT_TIMEOUT, 3024: return .timedOut
        case CR_CONNECTION_ERROR, CR_CONN_HOST_ERROR:
            return words.contains("(\(ECONNREFUSED))") ? .refused : words.contains("(\(ENETUNREACH))") ? .noRoute(words) : .connectFailed(words)
        case CR_SERVER_GONE_ERROR, CR_SERVER_LOST, CR_SERVER_LOST_EXTENDED, CR_SERVER_HANDSHAKE_ERR, CR_UNKNOWN_ERROR:
            return .connectFailed(words)
        default: return code >= 2000 && code < 3000 ? .connectFailed(words) : .queryFailed(words)
        }
    }

    /// Whether `failure` is the connection's, which another address may not have.
    private static func isConnectionFailure(_ failure: DatabaseFailure) -> Bool {
        if case .connectFailed = failure { true } else if case .noRoute = failure { true } else { false }
    }
}
