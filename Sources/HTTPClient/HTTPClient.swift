import Dispatch

/// Sends HTTP requests with libcurl, each on a Dispatch worker of its own (never a thread of
/// Swift's concurrency pool).
///
/// libcurl rather than FoundationNetworking's `URLSession`: on Linux, `URLSession` watches
/// libcurl's sockets with Dispatch sources and can close a socket before its source is
/// cancelled, which crashes the process in `_dispatch_event_loop_drain` (seen here under load,
/// after timeouts; swift-corelibs-foundation#4791). Here libcurl polls its own sockets.
public enum HTTPClient {
    /// Sends `request` and returns the final answer, whatever its status.
    public static func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        guard let transfer = CurlTransfer(request) else {
            throw HTTPClientError(.other, message: "libcurl could not start a transfer")
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: transfer.perform()) }
            }
        } onCancel: {
            transfer.cancel()
        }
        return try result.get()
    }
}
