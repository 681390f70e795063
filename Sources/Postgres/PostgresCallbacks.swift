import CPostgres

/// The one C callback of this module.
enum PostgresCallbacks {
    /// Silences the server's notices on `handle` (`PQsetNoticeProcessor`): libpq prints them on
    /// standard error by default ("terminating connection due to administrator command"), and what
    /// matters of them reaches the caller as a `PostgresError` anyway.
    static func ignoreNotices(on handle: OpaquePointer) {
        _ = PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }
}
