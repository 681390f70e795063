import MicroHTTP
import StateDeck
import StateDeckHistory

/// The answers every route that reads a panel's history shares: 404 without a history or for an
/// unknown panel, 400 for bad parameters, 503 when the store cannot be read; otherwise the
/// route's answer from what was read, off libmicrohttpd's thread.
struct PanelHistoryReader: Sendable {
    /// Nil when no history is kept.
    let history: (any HistoryStore)?
    let mirror: StateMirror

    /// `prepare` checks the request and gives the read; `answer` turns what was read into the
    /// route's answer.
    func reply<Value: Sendable>(
        panel: String,
        _ prepare: (any HistoryStore, String) throws(HistoryParameters.Invalid)
            -> @Sendable () throws(HistoryStoreError) -> Value,
        answer: @escaping @Sendable (Value) throws -> HTTPResponse
    ) -> HTTPReply {
        guard let history else {
            return .response(.apiError(.notFound, code: "no_history",
                                       message: "no history is kept: statedeck was started with --data none"))
        }
        guard mirror.headline(of: panel) != nil else { return .response(DeckError.unknownPanel(panel).response) }
        let read: @Sendable () throws(HistoryStoreError) -> Value
        do {
            read = try prepare(history, panel)
        } catch {
            return .response(.apiError(.badRequest, code: "bad_request", message: error.message))
        }
        return .deferred {
            do {
                return try answer(try read())
            } catch let error as HistoryStoreError {
                return .apiError(.serviceUnavailable, code: "history_unavailable", message: error.description)
            } catch {
                return .apiError(.internalServerError, code: "internal", message: "\(error)")
            }
        }
    }
}
