import CEpoll
import CPostgres
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One postgres check on the `ProbeLoop`, through libpq's non-blocking calls: the connection
/// (`PQconnectStartParams`, then `PQconnectPoll` each time its socket is ready), then the query
/// (`PQsendQuery`, `PQconsumeInput`, `PQgetResult`), all before one deadline. The outcome is nil
/// when the check was cancelled; the session is closed (`PQfinish`) whatever it came to.
///
/// Sendable for `outcome`, which a cancelling task may settle; the rest is the loop's thread's.
final class PostgresConversation: DeadlineProbe, @unchecked Sendable {
    let outcome = FirstResult<Result<QueryResult, DatabaseFailure>?>()
    let deadline: ContinuousClock.Instant
    var token: UInt64?
    /// libpq's connection keywords and their values.
    private let settings: [(String, String)]
    private let query: String
    private var connection: OpaquePointer?
    /// The socket watched for the session, -1 for none: libpq opens another one for each
    /// address it tries.
    private var socket: Int32 = -1
    /// Set once the query left, while its results come.
    private var querySentAt: ContinuousClock.Instant?
    /// The result the check reports so far: the last one with rows, else the last one.
    private var result: (rows: QueryResult?, failure: DatabaseFailure?)

    init(settings: [(String, String)], query: String, timeout: Duration) {
        self.settings = settings
        self.query = query
        deadline = .now + timeout
    }

    func begin(on loop: ProbeLoop) {
        connection = Self.withCStrings(settings.map(\.0)) { keywords in
            Self.withCStrings(settings.map(\.1)) { values in PQconnectStartParams(keywords, values, 0) }
        }
        guard let connection, PQstatus(connection) != CONNECTION_BAD else {
            return settle(.failure(.connectFailed(message)), on: loop)
        }
        PQsetnonblocking(connection, 1)
        // libpq's rule: poll as if the last answer asked to write.
        wait(writing: true, on: loop)
    }

    func socketReady(_ socket: Int32, events: UInt32, on loop: ProbeLoop) {
        guard let connection else { return }
        guard querySentAt != nil else { return connect(on: loop) }
        if events & EPOLLOUT.rawValue != 0, !flush(on: loop) { return }
        guard PQconsumeInput(connection) == 1 else { return settle(.failure(.connectFailed(message)), on: loop) }
        while PQisBusy(connection) == 0 {
            guard let answer = PQgetResult(connection) else { return settle(report(), on: loop) }
            // A COPY's result comes again at each call until its data is read: the check stops there.
            let copies = [PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH].contains(PQresultStatus(answer))
            if !copies { take(answer) }
            PQclear(answer)
            if copies { return settle(.failure(.queryFailed("COPY moves data rather than returning rows: a check cannot run it")), on: loop) }
        }
    }

    func deadlineCame(on loop: ProbeLoop) {
        settle(.failure(.timedOut), on: loop)
    }

    /// One step of the connection (`PQconnectPoll`): wait for the socket as libpq asks, send the
    /// query once connected, or settle the failure.
    private func connect(on loop: ProbeLoop) {
        guard let connection else { return }
        switch PQconnectPoll(connection) {
        case PGRES_POLLING_OK:
            guard PQsendQuery(connection, query) == 1 else { return settle(.failure(.connectFailed(message)), on: loop) }
            querySentAt = .now
            _ = flush(on: loop)
        case PGRES_POLLING_READING: wait(writing: false, on: loop)
        case PGRES_POLLING_FAILED: settle(.failure(Self.connectionFailure(message, needsPassword: PQconnectionNeedsPassword(connection) == 1)), on: loop)
        default: wait(writing: true, on: loop)
        }
    }

    /// Sends what libpq still holds of the query (`PQflush`): true once it all left, the socket
    /// then watched for the answer alone.
    private func flush(on loop: ProbeLoop) -> Bool {
        guard let connection else { return false }
        switch PQflush(connection) {
        case 0:
            wait(writing: false, on: loop)
            return true
        case 1:
            wait(writing: true, on: loop)
            return false
        default:
            settle(.failure(.connectFailed(message)), on: loop)
            return false
        }
    }

    /// Watches the session's socket for writing (and reading, which an answer to a query half
    /// sent needs) or for reading. The socket is taken out and put back each time: libpq closes
    /// one address's socket and opens the next one's within `PQconnectPoll`, and the new one may
    /// get the old one's number.
    private func wait(writing: Bool, on loop: ProbeLoop) {
        guard let connection, let token else { return }
        if socket >= 0 { loop.unwatch(socket) }
        socket = PQsocket(connection)
        let events = writing ? EPOLLOUT.rawValue | EPOLLIN.rawValue : EPOLLIN.rawValue
        let code = socket < 0 ? EBADF : loop.watch(socket, for: events, by: token)
        if code != 0 { settle(.failure(.connectFailed(String(errno: code))), on: loop) }
    }

    /// Keeps what matters of one of the query's results: the first error, or the rows.
    private func take(_ answer: OpaquePointer) {
        guard result.failure == nil, let sentAt = querySentAt else { return }
        switch PQresultStatus(answer) {
        case PGRES_TUPLES_OK:
            result.rows = QueryResult(version: version, columns: Self.firstRow(of: answer), rowCount: Int(PQntuples(answer)),
                                      time: .now - sentAt)
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            if result.rows == nil { result.rows = QueryResult(version: version, columns: [], rowCount: 0, time: .now - sentAt) }
        default:
            let words = Self.oneLine(String(cString: PQresultErrorMessage(answer)))
            let state = PQresultErrorField(answer, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            result.failure = switch state {
            case "57014": .timedOut
            case "42501", "28000", "28P01": .unauthorized(words)
            case nil: .connectFailed(words)
            default: .queryFailed(words)
            }
        }
    }

    /// The check's outcome once every result came.
    private func report() -> Result<QueryResult, DatabaseFailure> {
        if let failure = result.failure { return .failure(failure) }
        guard let rows = result.rows else { return .failure(.connectFailed(message)) }
        return .success(rows)
    }

    /// Closes the session (`PQfinish`, which closes its socket).
    func release(on loop: ProbeLoop) {
        if socket >= 0 { loop.unwatch(socket) }
        socket = -1
        connection.map(PQfinish)
        connection = nil
    }

    /// The session's last error (`PQerrorMessage`) on one line.
    private var message: String {
        connection.map { Self.oneLine(String(cString: PQerrorMessage($0))) } ?? "out of memory"
    }

    /// "PostgreSQL 15.18", from the version the server announced (`PQparameterStatus`).
    private var version: String {
        let announced = connection.flatMap { PQparameterStatus($0, "server_version") }.map { String(cString: $0) } ?? ""
        return "PostgreSQL " + (announced.split(separator: " ").first.map(String.init) ?? "")
    }

    /// The columns of the first row of `answer`: booleans as `true` and `false`, numbers and
    /// times as measurements.
    private static func firstRow(of answer: OpaquePointer) -> [QueryResult.Column] {
        guard PQntuples(answer) > 0 else { return [] }
        return (0..<PQnfields(answer)).map { index in
            let type = PQftype(answer, index)
            var value = PQgetisnull(answer, 0, index) == 1 ? nil : String(cString: PQgetvalue(answer, 0, index))
            if type == booleanType { value = value.map { $0 == "t" ? "true" : "false" } }
            return QueryResult.Column(name: String(cString: PQfname(answer, index)), value: value,
                                      isMeasurement: measurementTypes.contains(type))
        }
    }

    /// The type of `boolean` (`pg_type`'s oid).
    private static let booleanType: Oid = 16
    /// Numbers (int2, int4, int8, oid, float4, float8, numeric, money) and times (date, time,
    /// timestamp, timestamptz, interval, timetz).
    private static let measurementTypes: Set<Oid> = [21, 23, 20, 26, 700, 701, 1700, 790, 1082, 1083, 1114, 1184, 1186, 1266]

    /// The failure a connection came to, sorted by libpq's and the server's words: the server
    /// sends its reasons before the session has any SQLSTATE to read.
    static func connectionFailure(_ words: String, needsPassword: Bool) -> DatabaseFailure {
        let reason = serverPart(of: words)
        if words.contains("database \""), words.contains("does not exist") { return .unknownDatabase(reason) }
        if needsPassword || ["password authentication failed", "no password supplied", "pg_hba.conf", "authentication failed",
                             "role \""].contains(where: words.contains) {
            return .unauthorized(reason)
        }
        if words.contains("Connection refused") { return .refused }
        if words.contains("Network is unreachable") { return .noRoute(reason) }
        if words.contains("timeout expired") { return .timedOut }
        return .connectFailed(reason)
    }

    /// The server's reason in libpq's message, without the address it prefixes and the severity:
    /// `password authentication failed for user "app"`.
    private static func serverPart(of words: String) -> String {
        var reason = Substring(words)
        if let prefix = reason.firstRange(of: " failed: ") { reason = reason[prefix.upperBound...] }
        if reason.hasPrefix("FATAL:") { reason = reason.dropFirst(6) }
        return String(reason).trimmed()
    }

    /// libpq's words on one line, spaces squeezed.
    static func oneLine(_ words: String) -> String {
        words.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `strings` as a NULL-ended array of C strings for the length of `body`.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
