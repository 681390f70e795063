import Locking

/// A body sent unchanged to many requests, such as a static file.
///
/// The first time it is sent, the transport builds one libmicrohttpd response from it with that
/// answer's status and headers, and queues that same response to every later request that
/// carries the same status and headers: no copy, no allocation, no header added per request.
/// An answer with other headers gets a response of its own.
public final class SharedBytes: Sendable {
    public let bytes: [UInt8]
    /// Written once, then only read; released with this object.
    private let built = Locked<Built?>(nil)

    /// Unchecked: libmicrohttpd counts a response's references under the response's own mutex,
    /// so one response may be queued from every polling thread.
    private struct Built: @unchecked Sendable {
        let status: HTTPStatus
        let headers: HTTPHeaders
        let response: ResponseHandle
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    deinit {
        built.withLock { $0?.response.release() }
    }

    /// The response built for `status` and `headers`, if it is the one this object keeps.
    func builtResponse(status: HTTPStatus, headers: HTTPHeaders) -> ResponseHandle? {
        guard let built = built.current, built.status == status, built.headers == headers else { return nil }
        return built.response
    }

    /// Keeps `response` as the one built for `status` and `headers`, unless one is kept already.
    /// True if it was kept: this object then owns the reference the caller held.
    func keep(_ response: ResponseHandle, status: HTTPStatus, headers: HTTPHeaders) -> Bool {
        built.withLock { built in
            guard built == nil else { return false }
            built = Built(status: status, headers: headers, response: response)
            return true
        }
    }
}
