/// The catalogue of errors a panel can show; each kind has default copy, an icon and a retry
/// policy (see `ErrorKind+Catalogue.swift`).
public enum ErrorKind: String, Sendable, Hashable, Codable, CaseIterable {
    case noNetwork
    case unreachable
    case timeout
    case serverError
    /// Honours Retry-After through ``PanelError/retryAfter``.
    case serverMaintenance
    case notFound
    case unauthorized
    case invalidResponse
    /// An answer a condition of the panel rejects (an http panel's `expect`, a tcp banner).
    case checkFailed
    case commandFailed
    case outOfSpace
    case updateAvailable
    case updateRequired
    /// A DNS server answered that the name does not exist (NXDOMAIN).
    case dnsNameNotFound
    /// A DNS server failed to answer (SERVFAIL) or refused to (REFUSED).
    case dnsServerFailure
    /// A DNS answer too large for one UDP message (truncated) that could not be had over TCP.
    case dnsAnswerTooLarge
    /// A server's certificate expires within the panel's `validFor`.
    case certificateExpiring
    /// A server's certificate expired, is not signed by a trusted root, or is for another name.
    case certificateUntrusted
    /// A heartbeat's job did not ping in time, or did not end within the grace of its start.
    case pingMissed
    /// A heartbeat's job said it failed.
    case jobFailed
    /// A domain's registration expires within the panel's `warnBefore`.
    case domainExpiring
    /// A domain's registration has expired.
    case domainExpired
    /// The registry's RDAP server has no such domain (404): it is not registered.
    case domainNotRegistered
    /// No RDAP server is known for the domain's top-level domain.
    case noRDAPServer
    /// A container exists but does not run: exited, paused, restarting or dead.
    case containerNotRunning
    /// A running container's healthcheck fails.
    case containerUnhealthy
    /// The container engine has no container by that name (404).
    case containerNotFound
    /// A database server ran the panel's query (or Redis command) and answered an error.
    case queryFailed
    /// A gRPC service's health check answers that it is not serving (NOT_SERVING, UNKNOWN).
    case serviceNotServing
    case unknown
}
