import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One probe on the `TCPProbeLoop`: each address in turn until one connects, then, when asked,
/// the service's banner (the first line it sends), all before one deadline. The outcome is nil
/// when the probe was cancelled.
///
/// Sendable for `outcome`, which a cancelling task may settle; the rest is the loop's thread's.
final class ConnectAttempt: @unchecked Sendable {
    let id: UInt64
    let deadline: ContinuousClock.Instant
    let outcome = FirstResult<Result<TCPProbe.Connection, TCPProbe.Failure>?>()
    /// Whether the banner is read once connected.
    let readsBanner: Bool
    /// The socket whose connection, or banner, is under way, watched by the loop.
    private(set) var socket: Int32?
    /// The time the connection took, once made, while the banner is read.
    private(set) var connectTime: Duration?
    /// The banner's bytes so far.
    private var banner: [UInt8] = []
    private let addresses: [SocketAddress]
    private let started = ContinuousClock.now
    private var next = 0
    private var failure = TCPProbe.Failure.timedOut

    init(id: UInt64, addresses: [SocketAddress], timeout: Duration, readsBanner: Bool) {
        self.id = id
        self.addresses = addresses
        self.readsBanner = readsBanner
        deadline = started + timeout
    }

    /// A banner is read up to its first line end, or this many bytes: a service's greeting is one
    /// short line, and a service that sends more is not waited for.
    static let bannerLimit = 1024

    /// Whether the loop waits for the banner (the socket readable) rather than the connection
    /// (the socket writable).
    var isReadingBanner: Bool { connectTime != nil }

    /// Starts connecting to the next address with time left: returns the socket to watch (for
    /// writability, or readability once connected, see `isReadingBanner`), or nil once the
    /// outcome is settled (connected at once without a banner to read, or nothing left).
    func connectNext() -> Int32? {
        while next < addresses.count, ContinuousClock.now < deadline {
            let address = addresses[next]
            next += 1
            switch address.startConnecting() {
            case .success((let descriptor, connected: true)) where readsBanner:
                socket = descriptor
                startReadingBanner()
                return descriptor
            case .success((let descriptor, connected: true)):
                close(descriptor)
                outcome.offer(.success(TCPProbe.Connection(time: ContinuousClock.now - started, banner: nil)))
                return nil
            case .success((let descriptor, connected: false)):
                socket = descriptor
                return descriptor
            case .failure(let error):
                note(error.code)
            }
        }
        outcome.offer(.failure(failure))
        return nil
    }

    /// The watched socket's connection ended (`SO_ERROR`) and the loop closed the socket: `code`
    /// 0 settles the outcome, anything else moves on to the next address.
    func connectionEnded(_ code: Int32) -> Int32? {
        socket = nil
        connectTime = nil
        guard code != 0 else {
            outcome.offer(.success(TCPProbe.Connection(time: ContinuousClock.now - started, banner: nil)))
            return nil
        }
        note(code)
        return connectNext()
    }

    /// The watched socket connected and stays open: from now on the loop waits for its banner.
    func startReadingBanner() {
        connectTime = ContinuousClock.now - started
    }

    /// Reads what the service sent, the socket being readable; true once the outcome is settled
    /// (at the banner's first line end, at `bannerLimit` bytes, or when the service closed the
    /// connection or reset it), the loop then closing the socket.
    func readBanner() -> Bool {
        guard let socket, let connectTime else { return true }
        let room = Self.bannerLimit - banner.count
        var chunk = [UInt8](repeating: 0, count: room)
        let count = recv(socket, &chunk, room, 0)
        guard count >= 0 else {
            let code = errno
            guard code != EAGAIN, code != EINTR else { return false }
            self.socket = nil
            outcome.offer(banner.isEmpty ? .failure(.failed(TCPProbe.describe(code)))
                : .success(TCPProbe.Connection(time: connectTime, banner: bannerLine)))
            return true
        }
        banner += chunk.prefix(count)
        guard count == 0 || banner.count >= Self.bannerLimit || chunk.prefix(count).contains(UInt8(ascii: "\n")) else {
            return false
        }
        self.socket = nil
        outcome.offer(.success(TCPProbe.Connection(time: connectTime, banner: bannerLine)))
        return true
    }

    /// The deadline passed; the loop has already closed the socket. A banner begun is kept; a
    /// connection that never sent one is a service that did not answer.
    func expire() {
        socket = nil
        guard let connectTime else {
            outcome.offer(.failure(.timedOut))
            return
        }
        outcome.offer(banner.isEmpty ? .failure(.silent) : .success(TCPProbe.Connection(time: connectTime, banner: bannerLine)))
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
}
