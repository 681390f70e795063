import CCurl
import Locking

/// One exchange run by libcurl: an easy handle, alone in a multi handle so that `cancel()` can
/// wake the waiting transfer at once from another thread (`curl_multi_wakeup`).
///
/// Sendable for `cancel()`, which any thread may call; everything else runs on the one thread
/// that calls `perform()`, once.
final class CurlTransfer: @unchecked Sendable {
    private let curl: statedeck_curl_api
    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private let headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl's own words for a failure (`CURLOPT_ERRORBUFFER`).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    private let cancelled = Locked(false)
    let maxBodySize: Int
    let maxHeaderSize: Int
    let maxHeaderCount: Int
    /// Filled by the header and body callbacks while `perform()` runs.
    var response = HTTPClientResponse()
    /// The bytes of `response`'s status line and headers so far.
    var headerSize = 0
    /// Why a callback stopped the exchange (libcurl then fails with `CURLE_WRITE_ERROR`).
    var refusal: HTTPClientError?

    /// Sets `request` up; fails if libcurl cannot be loaded or make a handle (out of memory).
    init(_ request: HTTPClientRequest) throws(HTTPClientError) {
        let curl = try CurlLibrary.api.get()
        let noHandle = HTTPClientError(.other, message: "libcurl could not start a transfer")
        guard let easy = curl.easy_init() else { throw noHandle }
        guard let multi = curl.multi_init() else {
            curl.easy_cleanup(easy)
            throw noHandle
        }
        self.curl = curl
        self.easy = easy
        self.multi = multi
        maxBodySize = request.maxBodySize
        maxHeaderSize = request.maxHeaderSize
        maxHeaderCount = request.maxHeaderCount
        headerList = request.headers.reduce(nil) { curl.slist_append($0, "\($1.name): \($1.value)") }
        errorText.initialize(to: 0)
        configure(for: request)
    }

    deinit {
        _ = curl.multi_cleanup(multi)
        curl.easy_cleanup(easy)
        curl.slist_free_all(headerList)
        errorText.deallocate()
    }

    private func configure(for request: HTTPClientRequest) {
        set(CURLOPT_URL, request.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 1)
        set(CURLOPT_MAXREDIRS, 10)
        set(CURLOPT_TIMEOUT_MS, Int(request.timeout / .milliseconds(1)))
        // No signals: libcurl's default name-resolution timeout would use SIGALRM across threads.
        set(CURLOPT_NOSIGNAL, 1)
        // Every encoding libcurl can decode is offered and decoded.
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_USERAGENT, "StateDeck")
        statedeck_curl_set_pointer(curl, easy, CURLOPT_HTTPHEADER, headerList)
        statedeck_curl_set_pointer(curl, easy, CURLOPT_ERRORBUFFER, errorText)
        if request.method == "HEAD" {
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

    private func set(_ option: CURLoption, _ value: Int) {
        statedeck_curl_set_long(curl, easy, option, value)
    }

    private func set(_ option: CURLoption, _ text: String) {
        // libcurl copies string options.
        statedeck_curl_set_pointer(curl, easy, option, text)
    }

    /// Runs the exchange to its end; blocks the calling thread for at most the request's timeout.
    func perform() -> Result<HTTPClientResponse, HTTPClientError> {
        _ = curl.multi_add_handle(multi, easy)
        defer { _ = curl.multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        while running > 0 {
            let code = curl.multi_perform(multi, &running)
            if cancelled.current {
                return .failure(HTTPClientError(.cancelled, message: "cancelled"))
            }
            guard code == CURLM_OK else {
                return .failure(HTTPClientError(.other, message: String(cString: curl.multi_strerror(code))))
            }
            if running > 0 {
                _ = curl.multi_poll(multi, nil, 0, 1000, nil)
            }
        }
        var queued: Int32 = 0
        let code = curl.multi_info_read(multi, &queued)?.pointee.data.result ?? CURLE_OK
        guard code == CURLE_OK else { return .failure(failure(code)) }
        response.status = statedeck_curl_info_long(curl, easy, CURLINFO_RESPONSE_CODE)
        return .success(response)
    }

    /// Stops the exchange as soon as possible, from any thread; `perform()` then fails with
    /// `.cancelled`.
    func cancel() {
        cancelled.withLock { $0 = true }
        _ = curl.multi_wakeup(multi)
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
        return HTTPClientError(HTTPClientError.Reason(code, systemError: systemError), message: text)
    }

    /// `CURLE_TOO_LARGE`, which libcurl 8.6 added: newer than the headers built against, perhaps
    /// not than the library loaded.
    private static let tooLarge = CURLcode(rawValue: 100)
}
