import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One ping of a host: its name resolved (`NameResolver`), then echo requests to its first
/// address on the `ProbeLoop`, through the process's `EchoChannels`.
struct PingProbe {
    /// What came back of the requests.
    struct Report: Equatable {
        /// The address pinged, in numbers.
        let address: String
        /// How many requests were sent (or tried).
        let sent: Int
        /// The round trip of each request answered, in the order the replies came.
        let roundTrips: [Duration]
        /// The last error reported about a request, such as a router's "host unreachable".
        let unreachable: Unreachable?

        var received: Int { roundTrips.count }
        /// The share of requests not answered, from 0 to 1.
        var loss: Double { sent == 0 ? 1 : Double(sent - received) / Double(sent) }
        var fastest: Duration? { roundTrips.min() }
        var slowest: Duration? { roundTrips.max() }
        var average: Duration? { roundTrips.isEmpty ? nil : roundTrips.reduce(.zero, +) / received }
    }

    /// An error reported about a request: what it says, and who said it.
    struct Unreachable: Equatable {
        let reason: String
        let reporter: String?
    }

    enum Failure: Error, Equatable {
        case unresolved(String)
        /// The system has no route to the address (`ENETUNREACH`).
        case noRoute(String)
        /// Neither kind of ICMP socket may be opened.
        case notPermitted(String)
        case failed(String)
    }

    let host: String
    let count: Int
    /// Each request's limit; from the end of name resolution.
    let timeout: Duration
    /// Between two requests.
    let interval: Duration
    var channels = EchoChannels.shared

    /// What came back, or why nothing could be sent.
    ///
    /// - Throws: `CancellationError` at once when the task is cancelled.
    func ping() async throws(CancellationError) -> Result<Report, Failure> {
        switch try await NameResolver.addresses(of: host, port: 0).mapError({ Failure.unresolved($0.message) }) {
        case .success(let addresses):
            guard let address = addresses.first else { return .failure(.unresolved("no address")) }
            return try await ProbeLoop.shared.run(PingAttempt(address: address, count: count, interval: interval,
                                                              timeout: timeout, channels: channels))
        case .failure(let failure): return .failure(failure)
        }
    }
}
