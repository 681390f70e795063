import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StateDeck

extension HTTPSource {
    /// The catalogue's error for a request that got no HTTP answer.
    ///
    /// "No network" and "nothing listening" look the same from here (a refused or failed
    /// connection): the error is `unreachable` unless the system says it has no network at all.
    ///
    /// - Throws: `CancellationError` when the request was cancelled.
    func failure(for error: URLError) throws(CancellationError) -> PanelError {
        let detail = "\(method) \(url.absoluteString): \(error.localizedDescription)"
        let host = url.host ?? url.absoluteString
        switch error.code {
        case .cancelled:
            throw CancellationError()
        case .timedOut:
            return .timedOut(after: timeout, detail: detail)
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            return PanelError(.noNetwork, detail: detail)
        case .cannotConnectToHost:
            return .refused(host, port, detail: detail)
        case .cannotFindHost, .dnsLookupFailed:
            return .unresolved(host, detail: detail)
        case .networkConnectionLost:
            return PanelError(.unreachable, failureReason: "The connection closed before an answer came.",
                              detail: detail)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return PanelError(.unreachable, failureReason: "The secure connection failed.", detail: detail)
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
             .httpTooManyRedirects, .redirectToNonExistentLocation, .zeroByteResource:
            return PanelError(.invalidResponse, failureReason: "The answer is not valid HTTP.", detail: detail)
        default:
            return PanelError(.unknown, detail: detail)
        }
    }

    /// The port connected to, explicit or the scheme's.
    private var port: Int {
        url.port ?? (url.scheme == "https" ? 443 : 80)
    }
}
