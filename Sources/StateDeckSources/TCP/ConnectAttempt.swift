import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One probe on the `TCPProbeLoop`: each address in turn until one connects, all before one
/// deadline. The outcome is nil when the probe was cancelled.
///
/// Sendable for `outcome`, which a cancelling task may settle; the rest is the loop's thread's.
final class ConnectAttempt: @unchecked Sendable {
    let id: UInt64
    let deadline: ContinuousClock.Instant
    let outcome = FirstResult<Result<Duration, TCPProbe.Failure>?>()
    /// The socket whose connection is under way, watched by the loop.
    private(set) var socket: Int32?
    private let addresses: [SocketAddress]
    private let started = ContinuousClock.now
    private var next = 0
    private var failure = TCPProbe.Failure.timedOut

    init(id: UInt64, addresses: [SocketAddress], timeout: Duration) {
        self.id = id
        self.addresses = addresses
        deadline = started + timeout
    }

    /// Starts connecting to the next address with time left: returns the socket to watch for
    /// writability, or nil once the outcome is settled (connected at once, or nothing left).
    func connectNext() -> Int32? {
        while next < addresses.count, ContinuousClock.now < deadline {
            let address = addresses[next]
            next += 1
            switch address.startConnecting() {
            case .success((let descriptor, connected: true)):
                close(descriptor)
                outcome.offer(.success(ContinuousClock.now - started))
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

    /// The watched socket's connection ended (`SO_ERROR`): `code` 0 settles the outcome,
    /// anything else moves on to the next address. The loop has already closed the socket.
    func connectionEnded(_ code: Int32) -> Int32? {
        socket = nil
        guard code != 0 else {
            outcome.offer(.success(ContinuousClock.now - started))
            return nil
        }
        note(code)
        return connectNext()
    }

    /// The deadline passed; the loop has already closed the socket.
    func expire() {
        socket = nil
        outcome.offer(.failure(.timedOut))
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
