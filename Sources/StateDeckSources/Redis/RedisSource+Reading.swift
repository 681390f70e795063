extension RedisSource {
    static let keys = ["url", "command", "timeout", "expect"]

    /// `{ url, command, timeout, expect }`; the command is `PING` unless given, written as one
    /// text split at its spaces (`LLEN jobs`) or as a list of its arguments.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let url = map.databaseURL(schemes: ["redis"], defaultPort: Self.defaultPort, refusal: Self.refusal)
        let command = map["command"].map { $0.redisCommand() } ?? ["PING"]
        let limit = map["timeout"]?.duration()
        let expect = map["expect"].flatMap { ReplyCondition.list(reading: $0, timeout: limit ?? timeout) }
        guard let url, let command else { return nil }
        self.init(url: url, command: command, timeout: limit ?? timeout, conditions: expect ?? [])
    }

    /// Why the URL cannot be a redis source's: a database that is no number, or settings.
    private static func refusal(of url: DatabaseURL) -> String? {
        if let database = url.database, Int(database).map({ $0 >= 0 }) != true {
            return "ends in /\(database), which is no database number: write one such as /0"
        }
        return url.parameters.isEmpty ? nil : "takes no settings after ?: give the password and the database number in the URL itself"
    }
}

extension ConfigNode {
    /// A command and its arguments: a text split at its spaces, or a list.
    fileprivate func redisCommand() -> [String]? {
        if case .sequence = node.kind {
            guard let arguments = strings() else { return nil }
            guard !arguments.isEmpty else {
                problem("needs at least the command")
                return nil
            }
            return arguments
        }
        return text().map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
    }
}
