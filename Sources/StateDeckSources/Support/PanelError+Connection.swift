import HTTPClient
import StateDeck

extension PanelError {
    /// The catalogue's error for a connection to `host`:`port` that libcurl did not make: refused,
    /// timed out, unresolved, without a route or failed; nil for any other failure, which the
    /// source tells in its own words.
    ///
    /// - Throws: `CancellationError` when the exchange was cancelled.
    static func connection(_ error: HTTPClientError, host: String, port: Int, timeout: Duration,
                           detail: String) throws(CancellationError) -> PanelError? {
        switch error.reason {
        case .cancelled: throw CancellationError()
        case .timedOut: .timedOut(after: timeout, detail: detail)
        case .noRoute: .noRoute(host, detail: detail)
        case .refused: .refused(host, port, detail: detail)
        case .unresolved: .unresolved(host, detail: detail)
        case .connectFailed: .connectFailed(host, port, detail: detail)
        default: nil
        }
    }
}
