import CEpoll
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One TCP probe on the `ProbeLoop`: each address in turn until one connects, then, when asked,
/// the service's banner (the first line it sends), all before one deadline. The outcome is nil
/// when the probe was cancelled.
///
/// Sendable for `outcome`, which a cancelling task may settle; the rest is the loop's thread's.
final class ConnectAttempt: DeadlineProbe, @unchecked Sendable {
    let outcome = FirstResult<Result<TCPProbe.Connection, TCPProbe.Failure>?>()
    let deadline: ContinuousClock.Instant
    var token: UInt64?
    /// Whether the banner is read once connected.
    private let readsBanner: Bool
    private var dialer: AddressDialer
    private let started = ContinuousClock.now
    /// The socket whose connection, or banner, is under way.
    private var socket: Int32?
    /// The time the connection took, once made, while the banner is read.
    private var connectTime: Duration?
    /// The banner's bytes so far.
    private var banner: [UInt8] = []

    init(addresses: [SocketAddress], timeout: Duration, readsBanner: Bool) {
        self.readsBanner = readsBanner
        deadline = started + timeout
        dialer = AddressDialer(addresses, deadline: deadline)
    }

    /// A banner is read up to its first line end, or this many bytes: a service's greeting is one
    /// short line, and a service that sends more is not waited for.
    static let bannerLimit = 1024

    func begin(on loop: ProbeLoop) {
        connectNext(on: loop)
    }

    func release(on loop: ProbeLoop) {
        socket.map(loop.close)
        socket = nil
    }

    func socketReady(_ socket: Int32, events: UInt32, on loop: ProbeLoop) {
        if connectTime != nil {
            if readBanner(from: socket) { finish(on: loop) }
            return
        }
        let code = SocketAddress.connectionError(of: socket)
        guard code == 0 else {
            release(on: loop)
            dialer.note(code)
            return connectNext(on: loop)
        }
        connected(on: loop)
    }

    /// The deadline passed. A banner begun is kept; a connection that never sent one is a
    /// service that did not answer.
    func deadlineCame(on loop: ProbeLoop) {
        let result: Result<TCPProbe.Connection, TCPProbe.Failure> = if let connectTime {
            banner.isEmpty ? .failure(.silent) : .success(TCPProbe.Connection(time: connectTime, banner: bannerLine))
        } else {
            .failure(.timedOut)
        }
        settle(result, on: loop)
    }

    /// Starts connecting to the next address with time left; settles the outcome when nothing
    /// is left.
    private func connectNext(on loop: ProbeLoop) {
        guard let (descriptor, connected) = dialer.dialNext(on: loop, for: token) else {
            return settle(.failure(dialer.failure), on: loop)
        }
        socket = descriptor
        if connected { self.connected(on: loop) }
    }

    /// The socket connected: the outcome, or the banner to read, its socket watched for reading.
    private func connected(on loop: ProbeLoop) {
        guard readsBanner, let socket else {
            return settle(.success(TCPProbe.Connection(time: ContinuousClock.now - started, banner: nil)), on: loop)
        }
        connectTime = ContinuousClock.now - started
        let watched = loop.watch(socket, for: EPOLLIN.rawValue, by: token ?? 0)
        guard watched != 0 else { return }
        release(on: loop)
        connectTime = nil
        dialer.note(watched)
        connectNext(on: loop)
    }

    /// Reads what the service sent, the socket being readable; true once the outcome is settled
    /// (at the banner's first line end, at `bannerLimit` bytes, or when the service closed the
    /// connection or reset it).
    private func readBanner(from socket: Int32) -> Bool {
        guard let connectTime else { return true }
        let room = Self.bannerLimit - banner.count
        var chunk = [UInt8](repeating: 0, count: room)
        let count = recv(socket, &chunk, room, 0)
        guard count >= 0 else {
            let code = errno
            guard code != EAGAIN, code != EINTR else { return false }
            outcome.offer(banner.isEmpty ? .failure(.failed(String(errno: code)))
                : .success(TCPProbe.Connection(time: connectTime, banner: bannerLine)))
            return true
        }
        banner += chunk.prefix(count)
        guard count == 0 || banner.count >= Self.bannerLimit || chunk.prefix(count).contains(UInt8(ascii: "\n")) else {
            return false
        }
        outcome.offer(.success(TCPProbe.Connection(time: connectTime, banner: bannerLine)))
        return true
    }

    /// The banner's first line, without its line end; nil when the service sent nothing.
    private var bannerLine: String? {
        guard !banner.isEmpty else { return nil }
        var line = banner.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
