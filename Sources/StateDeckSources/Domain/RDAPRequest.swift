import FoundationEssentials
import HTTPClient
import StateDeck

/// One GET of an RDAP document (a registry's answer, or IANA's bootstrap file) through libcurl's
/// engine, its failures the catalogue's kinds as an http panel's are.
struct RDAPRequest {
    var url: URL
    /// This request's limit.
    var timeout: Duration
    /// The whole check's limit, which a card names: a request after another has what is left of it.
    var checkTimeout: Duration

    init(url: URL, timeout: Duration, checkTimeout: Duration? = nil) {
        self.url = url
        self.timeout = timeout
        self.checkTimeout = checkTimeout ?? timeout
    }

    /// The answer, whatever its status.
    ///
    /// - Throws: a `PanelError` when no answer came; `CancellationError` when the task was cancelled.
    func send() async throws -> HTTPClientResponse {
        let request = HTTPClientRequest(url: url.absoluteString, headers: [("Accept", "application/rdap+json, application/json")],
                                        timeout: timeout)
        do {
            return try await HTTPClient.send(request, waiting: LoadProgress.waitingForTurn)
        } catch {
            throw try HTTPSource(url: url, timeout: checkTimeout).failure(for: error)
        }
    }

    /// The card for an answer that is not 200, where `what` names who answered: "The RDAP server
    /// rdap.example". Overloaded or failing servers (429, 5xx) are retried; any other status is an
    /// answer StateDeck cannot use.
    func statusFailure(_ response: HTTPClientResponse, of what: String) -> PanelError {
        let detail = "GET \(url.absoluteString): \(response.status)\(response.reason.isEmpty ? "" : " \(response.reason)")"
        switch response.status {
        case 429, 500...599:
            return PanelError(.serverError, failureReason: "\(what) answered \(response.status).", detail: detail)
        default:
            return PanelError(.invalidResponse, failureReason: "\(what) answered \(response.status), not the document asked for.",
                              detail: detail)
        }
    }
}
