import StateDeck
import Threading

/// What a database source's check shows: the info of a query's result, or the card of its
/// failure, in the same words for every database. Nothing it writes holds the password: the
/// URL is shown masked, and the servers' messages never repeat it.
struct DatabaseCheck {
    let url: DatabaseURL
    /// How the check asks, for the cards' detail: the query, the Redis command.
    let request: String
    let timeout: Duration

    /// The addresses of the URL's host, looked up on a resolver thread (`NameResolver`).
    ///
    /// - Throws: the card of a name that does not resolve, or `CancellationError`.
    func addresses() async throws -> [SocketAddress] {
        switch try await NameResolver.addresses(of: url.host, port: url.port) {
        case .success(let found) where !found.isEmpty: found
        case .success: throw error(for: .unresolved("no address"))
        case .failure(let failure): throw error(for: .unresolved(failure.message))
        }
    }

    /// The card of `failure`.
    func error(for failure: DatabaseFailure) -> PanelError {
        let detail = { (words: String) in "\(url.masked): \(words)" }
        let server = "The server at \(url.address)"
        switch failure {
        case .unresolved(let reason):
            return .unresolved(url.host, detail: detail(reason))
        case .refused:
            return .refused(url.host, url.port, detail: detail("connection refused"))
        case .timedOut:
            return .timedOut(after: timeout, detail: detail("no answer to \(request.excerpt(limit: 200))"))
        case .noRoute(let reason):
            return .noRoute(url.host, detail: detail(reason))
        case .connectFailed(let reason):
            return PanelError(.unreachable, failureReason: "The connection to \(url.address) failed: \(reason.excerpt(limit: 300))",
                              detail: detail(reason))
        case .unauthorized(let reason):
            let user = url.user.map { "the user \($0.quoted)" } ?? "this client"
            return PanelError(.unauthorized, failureReason: "\(server) refused \(user): \(reason.excerpt(limit: 300))",
                              recoverySuggestion: "Check the user and the password of the panel's url (set its ${VARIABLE} in StateDeck's environment), and that the server lets this host in.",
                              detail: detail(reason))
        case .unknownDatabase(let reason):
            return PanelError(.notFound, failureReason: "\(server) has no database \((url.database ?? "").quoted).",
                              recoverySuggestion: "Check the database at the end of the panel's url.", detail: detail(reason))
        case .queryFailed(let reason):
            return PanelError(.queryFailed, failureReason: "The server answered an error: \(reason.excerpt(limit: 300))",
                              recoverySuggestion: "Run \(request.excerpt(limit: 100).quoted) by hand as the same user to see why, then fix the panel's query or the database.",
                              detail: detail("\(request.excerpt(limit: 200)): \(reason)"))
        case .invalidAnswer(let reason):
            return PanelError(.invalidResponse, failureReason: "\(server) answered something that is not its protocol.",
                              detail: detail(reason))
        }
    }

    /// The card of a condition `reason` the answer fails.
    func conditionFailed(_ reason: String, answer: String) -> PanelError {
        PanelError(.checkFailed, failureReason: reason,
                   recoverySuggestion: "If the database is right, change the panel's expect in the deck file.",
                   detail: "\(url.masked): \(answer)")
    }

    /// The info of a query's `result` that passed its conditions: the server and its database;
    /// the first row's columns, those that are numbers or times as readings (measured at every
    /// check, they are no change), the others as fields. The query's time is the load's.
    func info(of result: QueryResult) -> Info {
        let value = { (column: QueryResult.Column) in Info.Field(column.name, column.value?.excerpt(limit: 200) ?? "NULL") }
        let readings = result.columns.filter(\.isMeasurement).map(value)
        return Info(summary: result.rowCount == 0 ? "The query returned no rows" : "The query returned \(result.rowCount.counted("row"))",
                    fields: [Info.Field("Server", result.version), Info.Field("Database", url.masked)]
                        + result.columns.filter { !$0.isMeasurement }.map(value),
                    readings: readings.isEmpty ? nil : readings)
    }

    /// What came back, for the detail of a failed condition: "1 row: status = ok, depth = 3".
    static func describe(_ result: QueryResult) -> String {
        let row = result.columns.map { "\($0.name) = \($0.value?.excerpt(limit: 60) ?? "NULL")" }.joined(separator: ", ")
        return result.rowCount.counted("row") + (row.isEmpty ? "" : ": \(row)") + " in \(result.time.shortText)"
    }

    /// One postgres or mysql check: the host's addresses looked up, then the `conversation` made
    /// of them run on the probe loop, its result judged against `conditions` off Swift's shared
    /// pool (``ConditionEvaluation``).
    ///
    /// - Throws: the card of a failure, or `CancellationError` at once when the task is cancelled.
    func query<Conversation: ProbeLoopTask>(
        by conversation: ([SocketAddress]) -> Conversation, conditions: [QueryCondition]
    ) async throws -> Info where Conversation.Outcome == Result<QueryResult, DatabaseFailure> {
        let outcome = try await ProbeLoop.shared.run(conversation(try await addresses()))
        guard !conditions.isEmpty else { return try info(for: outcome, conditions: []) }
        return try await ConditionEvaluation.run {
            Result { () throws(PanelError) -> Info in try info(for: outcome, conditions: conditions) }
        }.get()
    }

    /// The info, or the card, of a postgres or mysql check's `outcome` against `conditions`.
    func info(for outcome: Result<QueryResult, DatabaseFailure>, conditions: [QueryCondition]) throws(PanelError) -> Info {
        let result: QueryResult
        switch outcome {
        case .success(let value): result = value
        case .failure(let failure): throw error(for: failure)
        }
        if let reason = conditions.lazy.compactMap({ $0.failure(of: result) }).first {
            throw conditionFailed(reason, answer: Self.describe(result))
        }
        return info(of: result)
    }
}
