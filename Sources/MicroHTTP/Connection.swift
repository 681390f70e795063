import CMicroHTTPD

/// A libmicrohttpd connection (`struct MHD_Connection *`).
///
/// Sendable because libmicrohttpd allows `MHD_resume_connection` from any thread; everything
/// else here is only called on the polling thread that owns the connection.
struct Connection: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Stops polling the connection (`MHD_suspend_connection`). Only from the access handler or
    /// the content reader, on libmicrohttpd's thread.
    func suspend() {
        MHD_suspend_connection(pointer)
    }

    /// Polls the connection again (`MHD_resume_connection`). Any thread, but only while it is
    /// suspended: libmicrohttpd leaves the call undefined otherwise. Callers hold the lock of
    /// the stream or request that suspended it; that is safe because libmicrohttpd never calls
    /// back into us while holding the mutex this takes.
    func resume() {
        MHD_resume_connection(pointer)
    }

    /// Queues the answer (`MHD_queue_response`); false if libmicrohttpd refused it.
    func queue(_ response: ResponseHandle, status: HTTPStatus) -> Bool {
        MHD_queue_response(pointer, UInt32(status.rawValue), response.pointer) == .YES
    }

    /// The connection's socket (`MHD_get_connection_info`, `MHD_CONNECTION_INFO_CONNECTION_FD`).
    var socket: Int32 {
        statedeck_connection_socket(pointer)
    }
}
