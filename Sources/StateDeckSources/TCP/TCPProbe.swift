import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One TCP connection attempt with a deadline: the host's name resolved (`NameResolver`), then
/// each address in turn on the `ProbeLoop`, then, when asked, the banner the service sends.
struct TCPProbe {
    /// A connection made.
    struct Connection: Equatable {
        /// From the first address tried to the connection.
        let time: Duration
        /// The first line the service sent, when asked for; nil when it sent nothing before
        /// closing the connection.
        let banner: String?
    }

    enum Failure: Error, Equatable {
        case refused
        case timedOut
        /// Connected, but no banner came before the deadline.
        case silent
        case unresolved(String)
        /// The network itself is unreachable (no route): the closest sign of "no network".
        case noRoute(String)
        case failed(String)
    }

    let host: String
    let port: Int
    /// From the end of name resolution.
    let timeout: Duration
    /// Whether to wait for the service's banner once connected, within the same timeout.
    let readsBanner: Bool

    /// The connection, or why there was none.
    ///
    /// - Throws: `CancellationError` at once when the task is cancelled.
    func connect() async throws(CancellationError) -> Result<Connection, Failure> {
        switch try await NameResolver.addresses(of: host, port: port).mapError({ Failure.unresolved($0.message) }) {
        case .success(let addresses):
            return try await ProbeLoop.shared.run(ConnectAttempt(addresses: addresses, timeout: timeout, readsBanner: readsBanner))
        case .failure(let failure): return .failure(failure)
        }
    }
}

extension TCPProbe.Failure {
    /// The most telling failure of this one and that of an attempt that failed with `errno`
    /// `code`: a refusal anywhere says most.
    func noting(_ code: Int32) -> TCPProbe.Failure {
        switch code {
        case ETIMEDOUT: .timedOut
        case ECONNREFUSED: .refused
        case ENETUNREACH: self == .refused ? self : .noRoute(String(errno: code))
        default: self == .refused ? self : .failed(String(errno: code))
        }
    }
}
