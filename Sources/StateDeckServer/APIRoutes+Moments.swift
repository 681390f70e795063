import FoundationEssentials
import MicroHTTP
import StateDeck
import StateDeckHistory

extension APIRoutes {
    /// The answer when no history is kept: a moment has nothing to be rebuilt from.
    private static var historyOff: HTTPResponse {
        .apiError(.conflict, code: "history_off",
                  message: "history is off: statedeck was started with --data none, so no moment is kept")
    }

    /// `GET /api/state?at=`: the state document as it was at `at`, rebuilt from the history off
    /// libmicrohttpd's thread; with `format=fixture`, that moment as a fixture to download. A bad
    /// `at`, one before the oldest instant kept or after now is a 400 saying so, and so is another
    /// format, as for the live document; no history is a 409; a store that cannot be read a 503.
    func momentRoute(_ request: HTTPRequest) -> HTTPReply {
        let format = request.query["format"]
        if let format, format != "fixture" { return .response(stateDownload(format: format)) }
        guard let history else { return .response(Self.historyOff) }
        let instant: Date
        do {
            instant = try HistoryParameters.instant(request.query)
        } catch {
            return .response(.apiError(.badRequest, code: "bad_request", message: error.message))
        }
        return .deferred {
            do throws(MomentError) {
                let document = try mirror.stateDocument(at: instant, history: history)
                return format == nil ? .api(.ok, document) : Self.fixtureDownload(stateDocument: document, at: instant)
            } catch {
                switch error {
                case .beforeOldest, .future: return .apiError(.badRequest, code: "bad_request", message: error.description)
                case .notKept: return Self.historyOff
                case .unreadable: return .apiError(.serviceUnavailable, code: "history_unavailable", message: error.description)
                }
            }
        }
    }

    /// `GET /api/changes`: every panel's changes of phase, health or summary in `from...to`,
    /// oldest first (or newest first with `order=newest`), a page of `limit` past `cursor`.
    func changesRoute(_ request: HTTPRequest) -> HTTPReply {
        guard let history else { return .response(Self.historyOff) }
        let query: HistoryQuery
        do {
            query = try HistoryParameters.historyQuery(request.query)
        } catch {
            return .response(.apiError(.badRequest, code: "bad_request", message: error.message))
        }
        let named = request.query["order"] ?? ChangeOrder.oldestFirst.rawValue
        guard let order = ChangeOrder(rawValue: named) else {
            return .response(.apiError(.badRequest, code: "bad_request", message: "order must be oldest or newest, not '\(named)'"))
        }
        return .deferred {
            do {
                return .api(.ok, try DeckJSON.makeEncoder().encode(try history.deckChanges(query, order: order)))
            } catch let error as HistoryStoreError {
                return .apiError(.serviceUnavailable, code: "history_unavailable", message: error.description)
            } catch {
                return .apiError(.internalServerError, code: "internal", message: "\(error)")
            }
        }
    }
}
