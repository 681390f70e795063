import CCurl
import Locking

/// One exchange: a libcurl easy handle set up for a request, and the answer its callbacks fill
/// in. `HTTPEngine`'s thread runs it in the engine's multi handle, then closes it.
///
/// Sendable for `outcome`, which the engine's thread settles and a cancelling task may settle
/// first; everything else is touched only by the engine's thread once the transfer is submitted,
/// the handle's share and cleanup included: the share handle has no lock, since only that thread
/// uses it.
final class CurlTransfer: @unchecked Sendable {
    private let curl: statedeck_curl_api
    let easy: UnsafeMutableRawPointer
    /// Where `easy` came from and goes back to.
    private let handles: CurlHandlePool
    private let headerList: UnsafeMutablePointer<curl_slist>?
    /// `CURLOPT_CONNECT_TO`'s one entry, kept until the transfer ends (libcurl does not copy it).
    private var connectToList: UnsafeMutablePointer<curl_slist>?
    /// libcurl's own words for a failure (`CURLOPT_ERRORBUFFER`).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// The line of the engine's admission queue it took its turn in.
    let hostKey: String
    let maxBodySize: Int
    let maxHeaderSize: Int
    let maxHeaderCount: Int
    let readsCertificate: Bool
    let handshakeOnly: Bool
    /// A mail session's reply lines, which the header callback keeps here (`SMTPSession`).
    let replyLines: Locked<[String]>?
    /// Filled by the header and body callbacks while the engine runs it.
    var response = HTTPClientResponse()
    /// The bytes of `response`'s status line and headers so far.
    var headerSize = 0
    /// Why a callback stopped the exchange (libcurl then fails with `CURLE_WRITE_ERROR`).
    var refusal: HTTPClientError?
    /// The answer or the failure: settled by the engine when libcurl is done, or by a cancellation.
    let outcome = FirstResult<Result<HTTPClientResponse, HTTPClientError>>()

    /// Sets `request`, whose ``hostKey(of:)`` is `hostKey`, up on a handle of `handles`; fails if
    /// libcurl cannot make one (out of memory).
    init(_ request: HTTPClientRequest, hostKey: String, handles: CurlHandlePool) throws(HTTPClientError) {
        guard let easy = handles.take() else { throw HTTPClientError(.other, message: "libcurl could not start a transfer") }
        let curl = handles.curl
        self.curl = curl
        self.easy = easy
        self.handles = handles
        self.hostKey = hostKey
        maxBodySize = request.maxBodySize
        maxHeaderSize = request.maxHeaderSize
        maxHeaderCount = request.maxHeaderCount
        readsCertificate = request.readsCertificate || request.handshakeOnly
        handshakeOnly = request.handshakeOnly
        replyLines = request.mailSession?.replies
        headerList = request.headers.reduce(nil) { curl.slist_append($0, "\($1.name): \($1.value)") }
        errorText.initialize(to: 0)
        configure(for: request)
    }

    deinit {
        curl.slist_free_all(headerList)
        curl.slist_free_all(connectToList)
        errorText.deallocate()
    }

    private func configure(for request: HTTPClientRequest) {
        set(CURLOPT_URL, request.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 1)
        set(CURLOPT_MAXREDIRS, 10)
        // libcurl starts the clock when the engine adds the handle, which it does once the
        // transfer's turn came: time waiting in line is not counted.
        set(CURLOPT_TIMEOUT_MS, Int(request.timeout / .milliseconds(1)))
        // No signals: libcurl's default name-resolution timeout would use SIGALRM across threads.
        set(CURLOPT_NOSIGNAL, 1)
        // Every encoding libcurl can decode is offered and decoded.
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_USERAGENT, "StateDeck")
        statedeck_curl_set_pointer(curl, easy, CURLOPT_HTTPHEADER, headerList)
        statedeck_curl_set_pointer(curl, easy, CURLOPT_ERRORBUFFER, errorText)
        if readsCertificate {
            set(CURLOPT_CERTINFO, 1)
        }
        if handshakeOnly {
            // A handshake of its own every time, on a connection closed after it: a reused
            // connection or a resumed session reads no certificate.
            set(CURLOPT_CONNECT_ONLY, 1)
            set(CURLOPT_FRESH_CONNECT, 1)
            set(CURLOPT_FORBID_REUSE, 1)
            set(CURLOPT_SSL_SESSIONID_CACHE, 0)
        }
        if !request.verifiesPeer {
            set(CURLOPT_SSL_VERIFYPEER, 0)
            set(CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let roots = request.trustedRoots {
            set(CURLOPT_CAINFO, roots)
        }
        if let socket = request.unixSocketPath {
            set(CURLOPT_UNIX_SOCKET_PATH, socket)
        }
        if request.http2PriorKnowledge {
            set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
        if let session = request.mailSession {
            configure(session, timeout: request.timeout)
        }
        if let connectTo = request.connectTo {
            connectToList = curl.slist_append(nil, connectTo)
            statedeck_curl_set_pointer(curl, easy, CURLOPT_CONNECT_TO, connectToList)
        }
        if request.mailSession != nil {
            // NOOP: a command every server takes, so the session ends with a QUIT.
            set(CURLOPT_CUSTOMREQUEST, "NOOP")
        } else if request.method == "HEAD" {
            set(CURLOPT_NOBODY, 1)
        } else if request.method != "GET" || request.body != nil {
            set(CURLOPT_CUSTOMREQUEST, request.method)
            var body = request.body ?? []
            set(CURLOPT_POSTFIELDSIZE, body.count)
            // libcurl copies `POSTFIELDSIZE` bytes; the extra one gives an empty body an address.
            body.append(0)
            body.withUnsafeBytes { _ = statedeck_curl_set_pointer(curl, easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        }
        receive(into: self, from: easy, with: curl)
    }

    /// An SMTP session, which libcurl ends on a connection of its own with `QUIT`, waiting for
    /// its reply on the engine's thread (`smtp_disconnect` blocks): at most `timeout` in whole
    /// seconds, rounded up (`CURLOPT_SERVER_RESPONSE_TIMEOUT`, each reply's limit), and a server
    /// that answered NOOP answers QUIT at once.
    private func configure(_ session: SMTPSessionRequest.Session, timeout: Duration) {
        set(CURLOPT_PROTOCOLS_STR, "smtp")
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_USE_SSL, Int((session.startsTLS ? CURLUSESSL_ALL : CURLUSESSL_NONE).rawValue))
        set(CURLOPT_SERVER_RESPONSE_TIMEOUT, max(1, Int((timeout / .seconds(1)).rounded(.up))))
        set(CURLOPT_FRESH_CONNECT, 1)
        set(CURLOPT_FORBID_REUSE, 1)
        set(CURLOPT_SSL_SESSIONID_CACHE, 0)
    }

    private func set(_ option: CURLoption, _ value: Int) {
        statedeck_curl_set_long(curl, easy, option, value)
    }

    private func set(_ option: CURLoption, _ text: String) {
        // libcurl copies string options.
        statedeck_curl_set_pointer(curl, easy, option, text)
    }

    /// Joins `share` (`CURLOPT_SHARE`: TLS sessions); on the engine's thread.
    func share(_ share: UnsafeMutableRawPointer) {
        statedeck_curl_set_pointer(curl, easy, CURLOPT_SHARE, share)
    }

    /// Gives the handle back to its pool, out of the multi handle; on the engine's thread.
    func close() {
        handles.give(easy)
    }

    /// Settles the outcome from libcurl's result `code` for this transfer. `certificates` holds
    /// the last certificate read of each host, given to an answer that came over a connection
    /// already open, which made no handshake to read one.
    func finish(_ code: CURLcode, certificates: inout [String: PeerCertificate]) {
        guard code == CURLE_OK else {
            outcome.offer(.failure(failure(code)))
            return
        }
        response.status = statedeck_curl_info_long(curl, easy, CURLINFO_RESPONSE_CODE)
        response.duration = .microseconds(statedeck_curl_info_off_t(curl, easy, CURLINFO_TOTAL_TIME_T))
        if readsCertificate {
            let read = PeerCertificate(statedeck_curl_info_certificates(curl, easy))
            // A handshake's certificate may be one read without verification: not kept.
            if let read, !handshakeOnly { certificates[hostKey] = read }
            response.certificate = read ?? certificates[hostKey]
        }
        outcome.offer(.success(response))
    }

    private func failure(_ code: CURLcode) -> HTTPClientError {
        if code == CURLE_WRITE_ERROR, let refusal { return refusal }
        let text = errorText.pointee == 0 ? String(cString: curl.easy_strerror(code)) : String(cString: errorText)
        // libcurl refuses a header longer than CURL_MAX_HTTP_HEADER before the header callback
        // sees it, as out of memory (CURLE_TOO_LARGE from 8.6 on): before the body, that is what
        // either means.
        if code == CURLE_OUT_OF_MEMORY || code == Self.tooLarge, response.body.isEmpty {
            return HTTPClientError(.headersTooLarge, message: "a header is longer than libcurl takes (\(text))")
        }
        let systemError = Int32(statedeck_curl_info_long(curl, easy, CURLINFO_OS_ERRNO))
        let verifyResult = statedeck_curl_info_long(curl, easy, CURLINFO_SSL_VERIFYRESULT)
        return HTTPClientError(HTTPClientError.Reason(code, systemError: systemError, verifyResult: verifyResult),
                               message: text)
    }

    /// `CURLE_TOO_LARGE`, which libcurl 8.6 added: newer than the headers built against, perhaps
    /// not than the library loaded.
    private static let tooLarge = CURLcode(rawValue: 100)

    /// The line of the engine's admission queue `request` waits in: its unix socket's path
    /// (`unix:/var/run/docker.sock`), else ``hostKey(of:)`` of its URL.
    static func hostKey(of request: HTTPClientRequest) -> String {
        request.unixSocketPath.map { "unix:\($0)" } ?? hostKey(of: request.url)
    }

    /// The scheme, host and port of `url`, lowercased (`http://example.com:8080`): requests to
    /// one server wait in one line. The port is written only when the URL gives it. Read as bytes:
    /// it runs for every request.
    static func hostKey(of url: String) -> String {
        let bytes = Array(url.utf8)
        let separator = Array("://".utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes[colon...].starts(with: separator) else { return url }
        let authorityStart = colon + separator.count
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let hostStart = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? authorityStart
        let key = (bytes[..<authorityStart] + bytes[hostStart..<authorityEnd]).map { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        }
        return String(decoding: key, as: UTF8.self)
    }
}
