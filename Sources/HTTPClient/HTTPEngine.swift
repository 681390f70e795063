import CCurl
import Locking
import Threading

/// Runs http requests with libcurl on one thread of its own (`http-engine`), all in one multi
/// handle: connections stay open between requests to a host and are reused, names resolved once
/// are cached, and TLS sessions are resumed, so a check of a known host costs a request on an open
/// connection rather than a new thread, connection and handshake.
///
/// Requests wait their turn in an `AdmissionQueue` before libcurl sees them: at most
/// `limitPerHost` to one host (scheme, host and port) and `totalLimit` in all. libcurl could
/// queue them itself (`CURLMOPT_MAX_HOST_CONNECTIONS`), but its timeout starts when a transfer is
/// added, so time spent in its queue would count against the request's timeout, and the caller
/// would not know that it waits. libcurl's own limits are set to the same values, for redirects
/// to another host.
///
/// One thread: libcurl drives thousands of transfers from one, and one multi handle is what
/// shares connections and the name cache (several engines would each open their own).
final class HTTPEngine: @unchecked Sendable {
    /// Requests to one host running at once: 6, as browsers allow for HTTP/1.1, so that many
    /// panels checking one service never look like a flood to it, and its answers come back
    /// over a few kept-alive connections.
    static let defaultLimitPerHost = 6
    /// Requests running at once in all, hence at most this many sockets (and connections kept
    /// open for reuse): well within the descriptors the server raises its limit to.
    static let defaultTotalLimit = 256

    /// The engine `HTTPClient.send` uses, started by the first request.
    static let shared = Result { () throws(HTTPClientError) in try HTTPEngine() }

    /// Submissions and cancellations, for the engine's thread to pick up when woken.
    private struct Inbox {
        var submitted: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
    }

    private let curl: statedeck_curl_api
    private let admission: AdmissionQueue<String>
    private let handles: CurlHandlePool
    private let inbox = Locked(Inbox())
    // Used only by the engine's thread once it runs, but for `curl_multi_wakeup`, which any
    // thread may call: hence `@unchecked Sendable`.
    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer

    /// An engine with its own thread, connections and limits; the thread runs as long as the
    /// process (it never holds the process back from exiting).
    init(limitPerHost: Int = defaultLimitPerHost, totalLimit: Int = defaultTotalLimit) throws(HTTPClientError) {
        let curl = try CurlLibrary.api.get()
        let noHandle = HTTPClientError(.other, message: "libcurl could not start its engine")
        guard let multi = curl.multi_init() else { throw noHandle }
        guard let share = curl.share_init() else {
            _ = curl.multi_cleanup(multi)
            throw noHandle
        }
        self.curl = curl
        self.multi = multi
        self.share = share
        admission = AdmissionQueue(limitPerKey: limitPerHost, totalLimit: totalLimit)
        // As many handles as transfers may run at once.
        handles = CurlHandlePool(curl: curl, capacity: totalLimit)
        // The multi handle already shares connections and the name cache between its transfers;
        // TLS sessions are each transfer's own unless shared.
        _ = statedeck_curl_share_data(curl, share, CURL_LOCK_DATA_SSL_SESSION)
        _ = statedeck_curl_multi_set_long(curl, multi, CURLMOPT_MAX_HOST_CONNECTIONS, limitPerHost)
        _ = statedeck_curl_multi_set_long(curl, multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, totalLimit)
        // Idle connections kept for reuse: one for each request that may run at once.
        _ = statedeck_curl_multi_set_long(curl, multi, CURLMOPT_MAXCONNECTS, totalLimit)
        DetachedThread.run { [self] in serve() }
    }

    /// Sends `request` once its turn comes (`waiting` hears when it starts and stops waiting) and
    /// returns the final answer, whatever its status. Task cancellation ends it at once with
    /// `.cancelled`, waiting or running.
    func send(
        _ request: HTTPClientRequest, waiting: @Sendable (Bool) async -> Void
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        let host = CurlTransfer.hostKey(of: request)
        do { try await admission.enter(host, waiting: waiting) } catch { throw Self.cancellation }
        let transfer: CurlTransfer
        do { transfer = try CurlTransfer(request, hostKey: host, handles: handles) } catch {
            admission.leave(host)
            throw error
        }
        return try await withTaskCancellationHandler {
            inbox.withLock { $0.submitted.append(transfer) }
            _ = curl.multi_wakeup(multi)
            return await transfer.outcome.value()
        } onCancel: {
            // The caller goes at once; the engine's thread then drops the transfer.
            transfer.outcome.offer(.failure(Self.cancellation))
            inbox.withLock { $0.cancelled.append(transfer) }
            _ = curl.multi_wakeup(multi)
        }.get()
    }

    private static let cancellation = HTTPClientError(.cancelled, message: "cancelled")

    /// How long the thread sleeps in `curl_multi_poll` with nothing to do; libcurl wakes it
    /// sooner for its own timers, `curl_multi_wakeup` for new work.
    private static let idlePoll: Int32 = 60_000  // milliseconds

    /// The engine's thread: adds submitted transfers, drops cancelled ones, lets libcurl work and
    /// settles the finished ones, then sleeps in `curl_multi_poll` until a socket, a timer or a
    /// wakeup.
    private func serve() {
        DetachedThread.nameCurrentThread("http-engine")
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        var certificates: [String: PeerCertificate] = [:]
        while true {
            let work = inbox.withLock { inbox in
                defer { inbox = Inbox() }
                return inbox
            }
            for transfer in work.submitted {
                start(transfer, into: &running)
            }
            // A handle is found by identity: a closed transfer's address may be a new one's.
            for transfer in work.cancelled where running[transfer.easy] === transfer {
                end(transfer, in: &running)
            }
            var active: Int32 = 0
            _ = curl.multi_perform(multi, &active)
            var left: Int32 = 0
            while let message = curl.multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let transfer = running[easy] else { continue }
                transfer.finish(message.pointee.data.result, certificates: &certificates)
                end(transfer, in: &running)
            }
            _ = curl.multi_poll(multi, nil, 0, Self.idlePoll, nil)
        }
    }

    /// Adds `transfer` to the multi handle, unless it was cancelled before it got here.
    private func start(_ transfer: CurlTransfer, into running: inout [UnsafeMutableRawPointer: CurlTransfer]) {
        guard !transfer.outcome.isSettled else {
            transfer.close()
            admission.leave(transfer.hostKey)
            return
        }
        transfer.share(share)
        let code = curl.multi_add_handle(multi, transfer.easy)
        guard code == CURLM_OK else {
            transfer.outcome.offer(.failure(HTTPClientError(.other, message: String(cString: curl.multi_strerror(code)))))
            transfer.close()
            admission.leave(transfer.hostKey)
            return
        }
        running[transfer.easy] = transfer
    }

    /// Takes `transfer` out of the multi handle, closes it and gives its turn to the next.
    private func end(_ transfer: CurlTransfer, in running: inout [UnsafeMutableRawPointer: CurlTransfer]) {
        _ = curl.multi_remove_handle(multi, transfer.easy)
        running[transfer.easy] = nil
        transfer.close()
        admission.leave(transfer.hostKey)
    }
}
