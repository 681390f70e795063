import CCurl
import Locking

/// libcurl easy handles kept for the next transfers, as a program on libcurl's multi interface
/// keeps them: `curl_easy_init` allocates and fills a handle of several kilobytes, and at
/// thousands of checks a second making and freeing one per transfer was the largest part of the
/// engine's own work. A handle given back is reset (`curl_easy_reset`: every option back to its
/// default, so nothing of one request reaches the next), which keeps its share.
final class CurlHandlePool: Sendable {
    let curl: statedeck_curl_api
    private let idle = Locked<[UnsafeMutableRawPointer]>([])
    /// Handles kept idle at most; past it a handle given back is freed.
    private let capacity: Int

    init(curl: statedeck_curl_api, capacity: Int) {
        self.curl = curl
        self.capacity = capacity
    }

    /// An idle handle, or a new one (`curl_easy_init`); nil when libcurl cannot make one.
    func take() -> UnsafeMutableRawPointer? {
        idle.withLock { $0.popLast() } ?? curl.easy_init()
    }

    /// Takes `easy` back, out of any multi handle: reset and kept, or freed (`curl_easy_cleanup`)
    /// when `capacity` are idle already.
    func give(_ easy: UnsafeMutableRawPointer) {
        curl.easy_reset(easy)
        let kept = idle.withLock { idle in
            guard idle.count < capacity else { return false }
            idle.append(easy)
            return true
        }
        if !kept { curl.easy_cleanup(easy) }
    }
}
