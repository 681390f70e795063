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
final class ConnectAttempt: ProbeLoopTask, @unchecked Sendable {
    let outcome = FirstResult<Result<TCPProbe.Connection, TCPProbe.Failure>?>()
    /// Whether the banner is read once connected.
    private let readsBanner: Bool
    private let addresses: [SocketAddress]
    private let started = ContinuousClock.now
    private let deadline: ContinuousClock.Instant
    /// Its name on the loop, once started.
    private var token: UInt64?
    /// The socket whose connection, or banner, is under way.
    private var socket: Int32?
    /// The time the connection took, once made, while the banner is read.
    private var connectTime: Duration?
    /// The banner's bytes so far.
    private var banner: [UInt8] = []
    private var next = 0
    private var failure = TCPProbe.Failure.timedOut

    init(addresses: [SocketAddress], timeout: Duration, readsBanner: Bool) {
        self.addresses = addresses
        self.readsBanner = readsBanner
        deadline = started + timeout
    }

    /// A banner is read up to its first line end, or this many bytes: a service's greeting is one
    /// short line, and a service that sends more is not waited for.
    static let bannerLimit = 1024

    /// Starts connecting, unless the probe was cancelled already.
    func start(on loop: ProbeLoop) {
        guard !outcome.isSettled else { return }
        let token = loop.add(self)
        self.token = token
        loop.setDeadline(deadline, for: token)
        connectNext(on: loop)
    }

    /// Ends the probe its task gave up on: its socket closed, the loop done with it.
    func cancel(on loop: ProbeLoop) {
        finish(on: loop)
    }

    func socketReady(_ socket: Int32, events: UInt32, on loop: ProbeLoop) {
        if connectTime != nil {
            if readBanner(from: socket) { finish(on: loop) }
            return
        }
        let code = Self.connectionError(of: socket)
        guard code == 0, readsBanner else {
            closeSocket(on: loop)
            guard code == 0 else {
                note(code)
                return connectNext(on: loop)
            }
            settle(.success(TCPProbe.Connection(time: ContinuousClock.now - started, banner: nil)), on: loop)
            return
        }
        connectTime = ContinuousClock.now - started
        let watched = loop.watch(socket, for: EPOLLIN.rawValue, by: token ?? 0)
        guard watched != 0 else { return }
        closeSocket(on: loop)
        note(watched)
        connectNext(on: loop)
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

    /// Starts connecting to the next address with time left, and watches its socket (for
    /// writability, or readability when it connected at once and has a banner to read); settles
    /// the outcome when it connected at once without a banner to read, or nothing is left.
    private func connectNext(on loop: ProbeLoop) {
        while next < addresses.count, ContinuousClock.now < deadline {
            let address = addresses[next]
            next += 1
            switch address.startConnecting() {
            case .success((let descriptor, connected: true)) where !readsBanner:
                _ = Glibc.close(descriptor)
                return settle(.success(TCPProbe.Connection(time: ContinuousClock.now - started, banner: nil)), on: loop)
            case .success((let descriptor, let connected)):
                if connected { connectTime = ContinuousClock.now - started }
                let watched = loop.watch(descriptor, for: connected ? EPOLLIN.rawValue : EPOLLOUT.rawValue, by: token ?? 0)
                guard watched != 0 else {
                    socket = descriptor
                    return
                }
                _ = Glibc.close(descriptor)
                connectTime = nil
                note(watched)
            case .failure(let error):
                note(error.code)
            }
        }
        settle(.failure(failure), on: loop)
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
            outcome.offer(banner.isEmpty ? .failure(.failed(TCPProbe.describe(code)))
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

    private func settle(_ result: Result<TCPProbe.Connection, TCPProbe.Failure>, on loop: ProbeLoop) {
        outcome.offer(result)
        finish(on: loop)
    }

    /// Closes the socket, if any, and leaves the loop.
    private func finish(on loop: ProbeLoop) {
        closeSocket(on: loop)
        token.map(loop.remove)
        token = nil
    }

    private func closeSocket(on loop: ProbeLoop) {
        socket.map(loop.close)
        socket = nil
    }

    /// The banner's first line, without its line end; nil when the service sent nothing.
    private var bannerLine: String? {
        guard !banner.isEmpty else { return nil }
        var line = banner.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// Keeps the most telling failure so far: a refusal anywhere says most.
    private func note(_ code: Int32) {
        switch code {
        case ETIMEDOUT: failure = .timedOut
        case ECONNREFUSED: failure = .refused
        case ENETUNREACH: failure = failure == .refused ? failure : .noRoute(TCPProbe.describe(code))
        default: failure = failure == .refused ? failure : .failed(TCPProbe.describe(code))
        }
    }

    /// The connection's result (`SO_ERROR`): 0 when connected.
    private static func connectionError(of socket: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }
}
