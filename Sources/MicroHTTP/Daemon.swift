import CMicroHTTPD

/// A running libmicrohttpd daemon (`struct MHD_Daemon *`).
///
/// Sendable so `HTTPServer` can hold it under its lock; it is only used by start and stop.
struct Daemon: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The port actually bound (`MHD_get_daemon_info`, `MHD_DAEMON_INFO_BIND_PORT`).
    var boundPort: Int {
        Int(statedeck_daemon_bound_port(pointer))
    }

    /// Closes every connection and joins the polling threads (`MHD_stop_daemon`). Aborts the
    /// process if a connection is still suspended, so resume them all first.
    func stop() {
        MHD_stop_daemon(pointer)
    }
}
