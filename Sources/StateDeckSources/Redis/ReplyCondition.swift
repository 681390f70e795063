/// A condition on a redis source's command: its reply, or how long it took. A source's
/// conditions must all hold; without any, a reply that is no error is enough.
public enum ReplyCondition: Sendable, Hashable {
    /// The reply, as text (an array's elements one a line), passes the test.
    case reply(ResultTest)
    /// The reply came within this time of the command.
    case under(Duration)

    /// Why `answer` fails the condition, or nil when it holds.
    func failure(of answer: RedisAnswer) -> String? {
        switch self {
        case .reply(let test): test.failure(of: answer.reply, subject: "The reply", null: "nil")
        case .under(let limit): answer.time < limit ? nil : "The reply took \(answer.time.shortText), expected under \(limit.shortText)."
        }
    }
}
