/// One client's event stream, as the hub sees it.
///
/// In the server this is MicroHTTP's `ResponseStream`. Both methods may be called from any
/// thread, concurrently (a ping and a publish), and must not block: the hub writes while it
/// keeps other publishers waiting. They may call `EventHub.unsubscribe`, but not `publish` or
/// `subscribe`, which would deadlock.
public protocol EventSink: AnyObject, Sendable {
    /// Sends or queues `bytes` for the client. Returns false once the client is gone or has
    /// fallen so far behind that its bounded queue overflowed; the hub then drops and finishes
    /// the sink.
    func write(_ bytes: [UInt8]) -> Bool

    /// `write`, but never sending on the caller's thread: the transport's own threads send what
    /// piled up, together. The hub enqueues while events come faster than it can write them
    /// itself (see `BroadcastPacing`).
    func enqueue(_ bytes: [UInt8]) -> Bool

    /// Ends the stream. Must be safe to call more than once and after a failed `write`.
    func finish()
}

extension EventSink {
    /// For a sink that never sends on the caller's thread: the same as `write`.
    public func enqueue(_ bytes: [UInt8]) -> Bool {
        write(bytes)
    }
}
