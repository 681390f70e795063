import CEpoll
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Connects to each address of a host in turn, without blocking, until one accepts: the first
/// step of every probe that speaks over TCP on the `ProbeLoop`. The loop thread's.
struct AddressDialer {
    private let addresses: [SocketAddress]
    private let deadline: ContinuousClock.Instant
    private var next = 0
    /// The most telling failure so far (``TCPProbe/Failure/noting(_:)``): a refusal anywhere says most.
    private(set) var failure = TCPProbe.Failure.timedOut

    init(_ addresses: [SocketAddress], deadline: ContinuousClock.Instant) {
        self.addresses = addresses
        self.deadline = deadline
    }

    /// Starts connecting to the next address with time left: its socket, connected at once, or
    /// with its connection under way and watched by `token` for `events` (writability, at
    /// least); nil once no address is left.
    mutating func dialNext(on loop: ProbeLoop, for token: UInt64?, watching events: UInt32 = EPOLLOUT.rawValue)
        -> (socket: Int32, connected: Bool)? {
        while next < addresses.count, ContinuousClock.now < deadline {
            let address = addresses[next]
            next += 1
            switch address.startConnecting() {
            case .success((let descriptor, connected: true)):
                return (descriptor, true)
            case .success((let descriptor, connected: false)):
                let watched = loop.watch(descriptor, for: events, by: token ?? 0)
                if watched == 0 { return (descriptor, false) }
                _ = Glibc.close(descriptor)
                note(watched)
            case .failure(let error):
                note(error.code)
            }
        }
        return nil
    }

    /// A connection that ended with `code` (`SO_ERROR`, or `epoll_ctl`'s), kept if it says more.
    mutating func note(_ code: Int32) {
        failure = failure.noting(code)
    }
}
