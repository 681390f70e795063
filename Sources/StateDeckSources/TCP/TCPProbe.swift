#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One blocking TCP connection attempt with a deadline: each resolved address in turn, with a
/// non-blocking `connect` and `poll`.
struct TCPProbe {
    enum Failure: Error, Equatable {
        case refused
        case timedOut
        case unresolved(String)
        /// The network itself is unreachable (no route): the closest sign of "no network".
        case noRoute(String)
        case failed(String)
    }

    let host: String
    let port: Int
    let timeout: Duration

    /// The time the connection took, or why there was none.
    func connect() -> Result<Duration, Failure> {
        let started = ContinuousClock.now
        let deadline = started + timeout
        let addresses: [SocketAddress]
        do { addresses = try SocketAddress.resolve(host: host, port: port) } catch { return .failure(error) }
        var failure = Failure.timedOut
        for address in addresses where ContinuousClock.now < deadline {
            let code = address.connect(within: deadline - ContinuousClock.now)
            switch code {
            case 0: return .success(ContinuousClock.now - started)
            case ETIMEDOUT: failure = .timedOut
            case ECONNREFUSED: failure = .refused
            case ENETUNREACH: failure = failure == .refused ? failure : .noRoute(Self.describe(code))
            default: failure = failure == .refused ? failure : .failed(Self.describe(code))
            }
        }
        return .failure(failure)
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
