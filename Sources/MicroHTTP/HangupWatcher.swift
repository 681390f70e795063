import CMicroHTTPD
import Dispatch
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Notices clients that close their end of a stream while it waits suspended.
///
/// libmicrohttpd stops polling a suspended connection, so a client that leaves is otherwise
/// noticed only when a write to it fails (the next ping, up to 15 s later): a page reloaded
/// again and again would pile up dead streams, their memory and their connection slots. Each
/// stream's socket goes into one epoll set, edge-triggered on the peer's hang-up; Dispatch
/// wakes on that set only when a client has left, so idle streams still cost nothing.
///
/// Sockets are never removed: closing one takes it out of the set, and events carry a stream's
/// id (never reused), not its socket, so a late event for a closed stream matches nothing.
final class HangupWatcher: Sendable {
    /// The epoll set (`epoll_create1`); closed by the source's cancel handler.
    private let poller: Int32
    private let source: Locked<(any DispatchSourceRead)?>

    /// Nil if the kernel refuses an epoll set; streams are then freed by their pings only.
    init?(onHangup: @escaping @Sendable (UInt64) -> Void) {
        let poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard poller >= 0 else { return nil }
        self.poller = poller
        let source = DispatchSource.makeReadSource(
            fileDescriptor: poller, queue: DispatchQueue(label: "statedeck.http.hangups"))
        source.setEventHandler { Self.drain(poller, onHangup) }
        source.setCancelHandler { close(poller) }
        self.source = Locked(source)
        source.resume()
    }

    deinit {
        stop()
    }

    /// Reports `stream` once the client closes `socket`.
    func watch(_ socket: Int32, stream: UInt64) {
        var event = epoll_event()
        event.events = EPOLLRDHUP.rawValue | EPOLLET.rawValue
        event.data.u64 = stream
        // A keep-alive connection may carry a second stream on the same socket.
        if epoll_ctl(poller, EPOLL_CTL_ADD, socket, &event) != 0, errno == EEXIST {
            epoll_ctl(poller, EPOLL_CTL_MOD, socket, &event)
        }
    }

    /// Stops reporting; returns at once, before the daemon closes any socket.
    func stop() {
        source.withLock { source in
            source?.cancel()
            source = nil
        }
    }

    /// Reports every hang-up that is ready, without waiting.
    private static func drain(_ poller: Int32, _ onHangup: @Sendable (UInt64) -> Void) {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = epoll_wait(poller, &events, Int32(events.count), 0)
            guard count > 0 else { return }
            events.prefix(Int(count)).forEach { onHangup($0.data.u64) }
        }
    }
}
