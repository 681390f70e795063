import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One TCP connection attempt with a deadline: the host's name resolved (`NameResolver`), then
/// each address in turn on the `TCPProbeLoop`.
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
    /// From the end of name resolution.
    let timeout: Duration

    /// The time the connection took, or why there was none.
    ///
    /// - Throws: `CancellationError` at once when the task is cancelled.
    func connect() async throws(CancellationError) -> Result<Duration, Failure> {
        let resolved = if let numeric = SocketAddress.numeric(host: host, port: port) {
            numeric.mapError { Failure.unresolved($0.message) }
        } else {
            try await NameResolver.resolve(host: host, port: port)
        }
        switch resolved {
        case .success(let addresses): return try await TCPProbeLoop.shared.connect(to: addresses, within: timeout)
        case .failure(let failure): return .failure(failure)
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
