import HTTPClient
import StateDeck

extension HTTPSource {
    /// The catalogue's error for a request that got no HTTP answer.
    ///
    /// Nothing listening is `unreachable`; no route to the host is the closest sign of "no
    /// network" there is.
    ///
    /// - Throws: `CancellationError` when the request was cancelled.
    func failure(for error: HTTPClientError) throws(CancellationError) -> PanelError {
        let detail = "\(method) \(shownURL): \(error.message)"
        let host = url.host ?? shownURL
        switch error.reason {
        case .cancelled:
            throw CancellationError()
        case .timedOut:
            return .timedOut(after: timeout, detail: detail)
        case .noRoute:
            return .noRoute(host, detail: detail)
        case .refused:
            return .refused(host, port, detail: detail)
        case .unresolved:
            return .unresolved(host, detail: detail)
        case .connectFailed, .permissionDenied, .noSocket:
            return .connectFailed(host, port, detail: detail)
        case .connectionLost:
            return PanelError(.unreachable, failureReason: "The connection closed before an answer came.",
                              detail: detail)
        case .certificateRejected(let problem):
            return PanelError(.certificateUntrusted, failureReason: "\(host)'s certificate is not trusted: \(problem.reason).",
                              detail: detail)
        case .insecure:
            return PanelError(.unreachable, failureReason: "The secure connection failed.", detail: detail)
        case .invalidAnswer:
            return PanelError(.invalidResponse, failureReason: "The answer is not valid HTTP.", detail: detail)
        case .bodyTooLarge:
            return PanelError(.invalidResponse,
                              failureReason: "The answer is larger than \(Self.maxBodySize >> 20) MiB.", detail: detail)
        case .headersTooLarge:
            return PanelError(.invalidResponse,
                              failureReason: "The answer's headers are larger than \(Self.maxHeaderSize >> 10) KiB.",
                              detail: detail)
        case .tooManyHeaders:
            return PanelError(.invalidResponse,
                              failureReason: "The answer has more than \(Self.maxHeaderCount) headers.", detail: detail)
        case .badHeader:
            return PanelError(.unknown, failureReason: "A request header is not valid HTTP.", detail: detail)
        case .badURL, .other:
            return PanelError(.unknown, detail: detail)
        }
    }

    /// The port connected to, explicit or the scheme's.
    private var port: Int {
        url.port ?? (url.scheme == "https" ? 443 : 80)
    }
}
