import StateDeck

/// Sends a command to a Redis server (or one speaking its protocol, such as Valkey): connects,
/// authenticates (`AUTH`) when the URL has a password, selects the URL's database number, and
/// judges the command's reply and its time against the conditions. The info names the server's
/// version and shows the reply, among the readings when it is a number.
public struct RedisSource: Sendable, Hashable {
    /// `redis://[user]:password@host:port/database`.
    public var url: DatabaseURL
    /// The command and its arguments, such as `["PING"]` or `["LLEN", "jobs"]`.
    public var command: [String]
    /// The whole check's limit, name resolution aside.
    public var timeout: Duration
    /// What the reply must show, all of it.
    public var conditions: [ReplyCondition]

    public static let defaultPort = 6379

    public init(url: DatabaseURL, command: [String] = ["PING"], timeout: Duration = .seconds(10), conditions: [ReplyCondition] = []) {
        self.url = url
        self.command = command
        self.timeout = timeout
        self.conditions = conditions
    }

    /// One check; throws a `PanelError`, or `CancellationError` at once when the task is
    /// cancelled, its connection then closed.
    ///
    /// The host's name is looked up on one of a few resolver threads (`NameResolver`); the
    /// conversation runs on the probe loop's one thread, shared by every probe, and its
    /// conditions are judged off Swift's shared pool (``ConditionEvaluation``).
    public func load() async throws -> Info {
        let check = DatabaseCheck(url: url, request: command.joined(separator: " "), timeout: timeout)
        let addresses = try await check.addresses()
        let outcome = try await ProbeLoop.shared.run(RedisConversation(addresses: addresses, commands: commands, timeout: timeout))
        let answer: RedisAnswer
        switch outcome {
        case .success(let value): answer = value
        case .failure(let failure): throw check.error(for: failure)
        }
        let failure = conditions.isEmpty ? nil : try await ConditionEvaluation.run {
            conditions.lazy.compactMap { $0.failure(of: answer) }.first
        }
        if let reason = failure {
            throw check.conditionFailed(reason, answer: "\(check.request): \((answer.reply ?? "nil").excerpt(limit: 200)) in \(answer.time.shortText)")
        }
        let reply = Info.Field("Reply", answer.reply?.excerpt(limit: 200) ?? "nil")
        return Info(summary: "Answered \(command[0].uppercased())",
                    fields: [Info.Field("Server", answer.version), Info.Field("Database", url.masked)] + (answer.isNumber ? [] : [reply]),
                    readings: answer.isNumber ? [reply] : nil)
    }

    /// What is sent, in order: `AUTH` (with the user, when the URL names one), `SELECT`, the
    /// check's command, `INFO server`.
    var commands: [(RedisConversation.Command, [String])] {
        var commands: [(RedisConversation.Command, [String])] = []
        if let password = url.password { commands.append((.authenticate, ["AUTH"] + (url.user.map { [$0] } ?? []) + [password])) }
        if let database = url.database { commands.append((.select, ["SELECT", database])) }
        return commands + [(.check, command), (.info, ["INFO", "server"])]
    }
}
