/// What a Redis server answered a check's command.
struct RedisAnswer: Equatable {
    /// "Redis 7.0.15", from `INFO server`.
    let version: String
    /// The reply as text (``RESPReply/text``); nil for Redis's nil.
    let reply: String?
    /// Whether the reply is an integer: a measurement, shown among the panel's readings.
    let isNumber: Bool
    /// From sending the commands to the command's reply.
    let time: Duration
}
