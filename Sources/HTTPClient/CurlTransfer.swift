import CCurl
import Locking

/// One exchange run by libcurl: an easy handle, alone in a multi handle so that `cancel()` can
/// wake the waiting transfer at once from another thread (`curl_multi_wakeup`).
///
/// Sendable for `cancel()`, which any thread may call; everything else runs on the one thread
/// that calls `perform()`, once.
final class CurlTransfer: @unchecked Sendable {
    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private let headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl's own words for a failure (`CURLOPT_ERRORBUFFER`).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    private let cancelled = Locked(false)
    let maxBodySize: Int
    /// Filled by the header and body callbacks while `perform()` runs.
    var response = HTTPClientResponse()
    var bodyTooLarge = false

    /// Sets `request` up; nil if libcurl cannot make a handle (out of memory).
    init?(_ request: HTTPClientRequest) {
        _ = CurlTransfer.globalInit
        guard let easy = curl_easy_init() else { return nil }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            return nil
        }
        self.easy = easy
        self.multi = multi
        maxBodySize = request.maxBodySize
        headerList = request.headers.reduce(nil) { curl_slist_append($0, "\($1.name): \($1.value)") }
        errorText.initialize(to: 0)
        configure(for: request)
    }

    deinit {
        curl_multi_cleanup(multi)
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorText.deallocate()
    }

    /// `curl_global_init`, once, before the first handle.
    private static let globalInit: Void = { _ = statedeck_curl_global_init() }()

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
        statedeck_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headerList)
        statedeck_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
        if request.method == "HEAD" {
            set(CURLOPT_NOBODY, 1)
        } else if request.method != "GET" || request.body != nil {
            set(CURLOPT_CUSTOMREQUEST, request.method)
            var body = request.body ?? []
            set(CURLOPT_POSTFIELDSIZE, body.count)
            // libcurl copies `POSTFIELDSIZE` bytes; the extra one gives an empty body an address.
            body.append(0)
            body.withUnsafeBytes { _ = statedeck_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        }
        receive(into: self, from: easy)
    }

    private func set(_ option: CURLoption, _ value: Int) {
        statedeck_curl_set_long(easy, option, value)
    }

    private func set(_ option: CURLoption, _ text: String) {
        // libcurl copies string options.
        statedeck_curl_set_pointer(easy, option, text)
    }

    /// Runs the exchange to its end; blocks the calling thread for at most the request's timeout.
    func perform() -> Result<HTTPClientResponse, HTTPClientError> {
        curl_multi_add_handle(multi, easy)
        defer { curl_multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        while running > 0 {
            let code = curl_multi_perform(multi, &running)
            if cancelled.current {
                return .failure(HTTPClientError(.cancelled, message: "cancelled"))
            }
            guard code == CURLM_OK else {
                return .failure(HTTPClientError(.other, message: String(cString: curl_multi_strerror(code))))
            }
            if running > 0 {
                curl_multi_poll(multi, nil, 0, 1000, nil)
            }
        }
        var queued: Int32 = 0
        let code = curl_multi_info_read(multi, &queued)?.pointee.data.result ?? CURLE_OK
        guard code == CURLE_OK else { return .failure(failure(code)) }
        response.status = statedeck_curl_info_long(easy, CURLINFO_RESPONSE_CODE)
        return .success(response)
    }

    /// Stops the exchange as soon as possible, from any thread; `perform()` then fails with
    /// `.cancelled`.
    func cancel() {
        cancelled.withLock { $0 = true }
        curl_multi_wakeup(multi)
    }

    private func failure(_ code: CURLcode) -> HTTPClientError {
        let text = errorText.pointee == 0 ? String(cString: curl_easy_strerror(code)) : String(cString: errorText)
        if code == CURLE_WRITE_ERROR, bodyTooLarge {
            return HTTPClientError(.bodyTooLarge, message: "the body is larger than \(maxBodySize) bytes")
        }
        let systemError = Int32(statedeck_curl_info_long(easy, CURLINFO_OS_ERRNO))
        return HTTPClientError(HTTPClientError.Reason(code, systemError: systemError), message: text)
    }
}
