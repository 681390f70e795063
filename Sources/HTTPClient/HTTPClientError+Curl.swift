import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension HTTPClientError.Reason {
    /// The reason for libcurl's result `code`; `systemError` (`CURLINFO_OS_ERRNO`) tells a
    /// refused connection from a missing route, `verifyResult` (`CURLINFO_SSL_VERIFYRESULT`) why
    /// a certificate was rejected.
    init(_ code: CURLcode, systemError: Int32, verifyResult: Int) {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self = .unresolved
        case CURLE_COULDNT_CONNECT:
            switch systemError {
            case ECONNREFUSED: self = .refused
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN: self = .noRoute
            case EACCES, EPERM: self = .permissionDenied
            case ENOENT: self = .noSocket
            default: self = .connectFailed
            }
        case CURLE_PEER_FAILED_VERIFICATION:
            self = .certificateRejected(CertificateProblem(verifyResult: verifyResult))
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            self = .insecure
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE:
            self = .connectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_TOO_MANY_REDIRECTS, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2,
             CURLE_HTTP2_STREAM:
            self = .invalidAnswer
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            self = .badURL
        default:
            self = .other
        }
    }
}
