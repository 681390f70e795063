/// What libmicrohttpd keeps for one connection (its socket context): the arrival deadline, and
/// the request context that the connection's next request reuses when nothing else holds it.
///
/// Only touched on the polling thread that owns the connection (connection notifications and
/// the URI-log callback), so it needs no lock.
final class ConnectionContext {
    let connection: Connection
    /// Nil when requests are not timed.
    let deadline: ConnectionDeadline?
    private var lastRequest: RequestContext?

    init(connection: Connection, deadline: ConnectionDeadline?) {
        self.connection = connection
        self.deadline = deadline
    }

    /// A context for the request that begins with `target` (`targetSize` bytes as received): the
    /// previous request's, reset, if no deferred work, stream or registry still holds it (two
    /// allocations fewer per keep-alive request), else a new one.
    func startRequest(target: String?, targetSize: Int) -> RequestContext {
        if isKnownUniquelyReferenced(&lastRequest), let reused = lastRequest {
            reused.restart(target: target, targetSize: targetSize)
            return reused
        }
        let context = RequestContext(target: target, targetSize: targetSize, connection: connection, deadline: deadline)
        lastRequest = context
        return context
    }
}
