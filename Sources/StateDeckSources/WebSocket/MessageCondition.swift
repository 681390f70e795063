/// A condition on a websocket source's exchange: the answer to its message, or how long the
/// exchange took. A source's conditions must all hold.
public enum MessageCondition: Sendable, Hashable {
    /// The answer, the first message the server sends after the source's, passes the test.
    case message(TextTest)
    /// The answer came (without a message, the upgrade was accepted) within this time of connecting.
    case under(Duration)

    /// Why `exchange` fails the condition, or nil when it holds.
    func failure(of exchange: WebSocketProbe.Exchange) -> String? {
        switch self {
        case .message(let test):
            test.failure(of: exchange.answer, subject: "The answer")
        case .under(let limit):
            exchange.totalTime < limit ? nil : "Answered in \(exchange.totalTime.shortText), expected under \(limit.shortText)."
        }
    }
}

extension WebSocketProbe.Exchange {
    /// From connecting to the answer, or to the upgrade without a message.
    var totalTime: Duration { upgradeTime + (answerTime ?? .zero) }
}
