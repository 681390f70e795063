/// Sends HTTP requests with libcurl, all of them on one thread (`HTTPEngine`): never a thread of
/// Swift's concurrency pool, nor a shared Dispatch worker, where other blocking work could hold a
/// request up before it starts.
///
/// libcurl rather than FoundationNetworking's `URLSession`: on Linux, `URLSession` watches
/// libcurl's sockets with Dispatch sources and can close a socket before its source is
/// cancelled, which crashes the process in `_dispatch_event_loop_drain` (seen here under load,
/// after timeouts; swift-corelibs-foundation#4791). Here libcurl polls its own sockets.
public enum HTTPClient {
    /// Sends `request` and returns the final answer, whatever its status. A header that is not
    /// one valid field is refused before anything is sent (`badHeader`).
    ///
    /// A request waits its turn behind the engine's limits (`HTTPEngine.defaultLimitPerHost`
    /// to one host, `defaultTotalLimit` in all); `waiting(true)` tells when it starts waiting,
    /// `waiting(false)` when its turn comes, and its timeout runs only from then.
    public static func send(
        _ request: HTTPClientRequest, waiting: @Sendable (Bool) async -> Void = { _ in }
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        if let field = request.headers.first(where: { !HTTPFieldSyntax.isName($0.name) || !HTTPFieldSyntax.isValue($0.value) }) {
            throw HTTPClientError(.badHeader, message: "the header \(String(reflecting: field.name)) is not one valid HTTP field")
        }
        return try await HTTPEngine.shared.get().send(request, waiting: waiting)
    }
}
