import COpenSSL

/// A TLS client session over a non-blocking socket it does not own, with OpenSSL (`SSL_connect`,
/// `SSL_read`, `SSL_write`): each call does what it can at once and says which readiness of the
/// socket it waits for otherwise. Used on the probe loop's thread only; OpenSSL's error queue is
/// per thread, so each call clears it first: another session's error must not be read as its own.
final class TLSChannel {
    /// What a call came to.
    enum Progress: Equatable {
        /// Done: the bytes read or written (0 for a handshake).
        case done(Int)
        case wantsRead
        case wantsWrite
        /// The peer closed the session.
        case closed
        /// The handshake or the session failed; `untrusted` when the certificate did not verify.
        case failed(String, untrusted: Bool)
    }

    private let context: OpaquePointer
    private let session: OpaquePointer

    /// A session for `socket`, verifying the server's certificate for `host` against
    /// `trustedRoots` (a PEM file) or the system's roots, or OpenSSL's words for why it cannot be made.
    static func make(socket: Int32, host: String, trustedRoots: String?) -> Result<TLSChannel, TLSFailure> {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else { return .failure(TLSFailure(reason: lastError())) }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let rootsLoaded = if let trustedRoots {
            SSL_CTX_load_verify_locations(context, trustedRoots, nil) == 1
        } else {
            SSL_CTX_set_default_verify_paths(context) == 1
        }
        guard rootsLoaded, let session = SSL_new(context) else {
            let reason = lastError()
            SSL_CTX_free(context)
            return .failure(TLSFailure(reason: "the trusted roots could not be loaded: \(reason)"))
        }
        statedeck_ssl_accept_moving_buffer(session)
        SSL_set_fd(session, socket)
        if isAddress(host) {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(session), host)
        } else {
            _ = statedeck_ssl_set_server_name(session, host)
            SSL_set1_host(session, host)
        }
        return .success(TLSChannel(context: context, session: session))
    }

    private init(context: OpaquePointer, session: OpaquePointer) {
        self.context = context
        self.session = session
    }

    deinit {
        SSL_free(session)
        SSL_CTX_free(context)
    }

    /// Why a session could not be made.
    struct TLSFailure: Error {
        let reason: String
    }

    /// `SSL_connect`, again until `done`.
    func handshake() -> Progress {
        ERR_clear_error()
        return progress(of: SSL_connect(session))
    }

    /// `SSL_write` of `bytes`; retried with the same bytes after `wantsRead` or `wantsWrite`.
    func write(_ bytes: ArraySlice<UInt8>) -> Progress {
        ERR_clear_error()
        return bytes.withUnsafeBytes { progress(of: SSL_write(session, $0.baseAddress, Int32($0.count))) }
    }

    /// `SSL_read` into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Progress {
        ERR_clear_error()
        return progress(of: SSL_read(session, buffer.baseAddress, Int32(buffer.count)))
    }

    private func progress(of result: Int32) -> Progress {
        if result > 0 { return .done(Int(result)) }
        switch SSL_get_error(session, result) {
        case SSL_ERROR_NONE: return .done(0)
        case SSL_ERROR_WANT_READ: return .wantsRead
        case SSL_ERROR_WANT_WRITE: return .wantsWrite
        case SSL_ERROR_ZERO_RETURN: return .closed
        default:
            let verification = SSL_get_verify_result(session)
            if verification != Int(X509_V_OK) {
                return .failed(String(cString: X509_verify_cert_error_string(verification)), untrusted: true)
            }
            let reason = Self.lastError()
            return reason.isEmpty ? .closed : .failed(reason, untrusted: false)
        }
    }

    /// OpenSSL's words for its last error on this thread, empty when it has none.
    private static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "" }
        var text = [UInt8](repeating: 0, count: 256)
        text.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ERR_error_string_n(code, $0.baseAddress, $0.count) }
        }
        return String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Whether `host` is an IPv4 or IPv6 address, checked by address rather than name.
    private static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.allSatisfy { $0 == "." || $0.isNumber }
    }
}
