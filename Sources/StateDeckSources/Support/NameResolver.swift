import Threading

/// Looks host names up for probes (tcp, ping), at most `limit` at once, each on a thread of its own.
///
/// `getaddrinfo` blocks, for as long as the system's resolver takes (seconds when a DNS server
/// does not answer), so it must never run on the probe loop: every other probe would wait. A few
/// threads at most, not one per probe: a deck of a thousand names would otherwise start a
/// thousand threads each time it refreshes. Addresses written as numbers never come here
/// (`AI_NUMERICHOST` answers them at once).
enum NameResolver {
    /// Lookups running at once; the rest wait in line.
    static let limit = 4

    private static let lookups = AdmissionQueue<String>(limitPerKey: limit, totalLimit: limit)
    /// The one line all lookups wait in.
    private static let line = "getaddrinfo"

    /// The addresses of `host`. A cancelled caller returns at once; its lookup finishes alone and
    /// only then frees its place.
    static func resolve(host: String, port: Int) async throws(CancellationError) -> Result<[SocketAddress], SocketAddress.ResolveError> {
        try await lookups.runDetached(line) { SocketAddress.resolve(host: host, port: port) }
    }

    /// The addresses of `host`: at once for one written as a number, else looked up in line.
    static func addresses(of host: String, port: Int) async throws(CancellationError) -> Result<[SocketAddress], SocketAddress.ResolveError> {
        if let numeric = SocketAddress.numeric(host: host, port: port) { return numeric }
        return try await resolve(host: host, port: port)
    }
}
