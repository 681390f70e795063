import Threading

/// Sends HTTP requests with libcurl, each on a thread of its own: never a thread of Swift's
/// concurrency pool, nor a shared Dispatch worker, where other blocking work (a TCP probe waiting
/// out its timeout) could hold a request up before it starts (seen: a cancelled load answered
/// 2 s late).
///
/// libcurl rather than FoundationNetworking's `URLSession`: on Linux, `URLSession` watches
/// libcurl's sockets with Dispatch sources and can close a socket before its source is
/// cancelled, which crashes the process in `_dispatch_event_loop_drain` (seen here under load,
/// after timeouts; swift-corelibs-foundation#4791). Here libcurl polls its own sockets.
public enum HTTPClient {
    /// Sends `request` and returns the final answer, whatever its status. A header that is not
    /// one valid field is refused before anything is sent (`badHeader`).
    public static func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        if let field = request.headers.first(where: { !HTTPFieldSyntax.isName($0.name) || !HTTPFieldSyntax.isValue($0.value) }) {
            throw HTTPClientError(.badHeader, message: "the header \(String(reflecting: field.name)) is not one valid HTTP field")
        }
        let transfer = try CurlTransfer(request)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DetachedThread.run { continuation.resume(returning: transfer.perform()) }
            }
        } onCancel: {
            transfer.cancel()
        }
        return try result.get()
    }
}
