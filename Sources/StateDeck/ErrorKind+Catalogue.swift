extension ErrorKind {
    /// The card's default heading.
    public var title: String { copy.title }

    /// The card's default body text.
    public var message: String { copy.message }

    /// A short icon name the page maps to a glyph.
    public var icon: String {
        switch self {
        case .noNetwork: "wifi-off"
        case .timeout: "clock"
        case .unreachable, .serverError, .dnsServerFailure, .dnsAnswerTooLarge, .containerNotRunning, .serviceNotServing: "server"
        case .serverMaintenance: "wrench"
        case .notFound, .dnsNameNotFound, .domainNotRegistered, .noRDAPServer, .containerNotFound: "search"
        case .unauthorized, .certificateExpiring, .certificateUntrusted: "lock"
        case .invalidResponse, .checkFailed, .containerUnhealthy, .queryFailed: "file-warning"
        case .commandFailed: "terminal"
        case .outOfSpace: "hard-drive"
        case .updateAvailable, .updateRequired: "download"
        case .pingMissed, .domainExpiring: "clock"
        case .jobFailed: "terminal"
        case .domainExpired, .unknown: "alert"
        }
    }

    /// Whether trying again on its own may help: transient failures are retried automatically
    /// before the card is shown; answers that will not change without a person are not.
    public var isRetryable: Bool {
        switch self {
        case .noNetwork, .unreachable, .timeout, .serverError, .serverMaintenance, .dnsServerFailure, .unknown: true
        case .notFound, .unauthorized, .invalidResponse, .checkFailed, .commandFailed, .outOfSpace,
            .updateAvailable, .updateRequired, .dnsNameNotFound, .dnsAnswerTooLarge, .certificateExpiring, .certificateUntrusted,
            .pingMissed, .jobFailed, .domainExpiring, .domainExpired, .domainNotRegistered, .noRDAPServer,
            .containerNotRunning, .containerUnhealthy, .containerNotFound, .queryFailed, .serviceNotServing: false
        }
    }

    /// The buttons every card of the kind offers after the error's and the panel's own.
    ///
    /// | kinds | buttons |
    /// | --- | --- |
    /// | noNetwork, unreachable, timeout, serverError, serverMaintenance, dnsServerFailure, commandFailed, unknown | Try again (primary), Dismiss |
    /// | notFound, unauthorized, invalidResponse, checkFailed, updateAvailable, updateRequired, outOfSpace, dnsNameNotFound, dnsAnswerTooLarge, certificateExpiring, certificateUntrusted, domainExpiring, domainExpired, domainNotRegistered, noRDAPServer, containerNotRunning, containerUnhealthy, containerNotFound, queryFailed, serviceNotServing | Check again (secondary), Dismiss |
    /// | pingMissed, jobFailed | Dismiss |
    ///
    /// A retry may fix the first row; the second needs a fix elsewhere first (credentials, a URL,
    /// a check, an update, disk space, a DNS zone or server, a certificate, a domain's renewal or
    /// registry, a container to start, mend or name, a query, a service to serve), so loading again is offered but not as the primary action.
    /// A heartbeat loads nothing: only the job's next ping changes what it shows.
    public var recoveryOptions: [RecoveryOption] {
        switch self {
        case .noNetwork, .unreachable, .timeout, .serverError, .serverMaintenance, .dnsServerFailure, .commandFailed,
            .unknown:
            [.tryAgain, .cancel]
        case .notFound, .unauthorized, .invalidResponse, .checkFailed, .updateAvailable, .updateRequired, .outOfSpace,
            .dnsNameNotFound, .dnsAnswerTooLarge, .certificateExpiring, .certificateUntrusted, .domainExpiring, .domainExpired,
            .domainNotRegistered, .noRDAPServer, .containerNotRunning, .containerUnhealthy, .containerNotFound, .queryFailed,
            .serviceNotServing:
            [.checkAgain, .cancel]
        case .pingMissed, .jobFailed:
            [.cancel]
        }
    }

    private var copy: (title: String, message: String) {
        switch self {
        case .noNetwork:
            ("No network", "StateDeck can't reach the network. Check the connection, then try again.")
        case .unreachable:
            ("Can't reach the service", "Nothing answered at its address. It may be stopped or still starting.")
        case .timeout:
            ("Timed out", "The service took too long to answer.")
        case .serverError:
            ("Unexpected server issue", "The service ran into a problem while answering.")
        case .serverMaintenance:
            ("Under maintenance", "The service is down for maintenance and will be back soon.")
        case .notFound:
            ("Not found", "The service answered, but what this panel shows isn't there.")
        case .unauthorized:
            ("Not authorized", "The service refused the request. Check the credentials.")
        case .invalidResponse:
            ("Unexpected response", "The service answered with something this panel can't read.")
        case .checkFailed:
            ("Check failed", "The service answered, but not what this panel expects.")
        case .commandFailed:
            ("Command failed", "The command ended with an error.")
        case .outOfSpace:
            ("Out of space", "There isn't enough disk space left.")
        case .updateAvailable:
            ("Update available", "A newer version is available.")
        case .updateRequired:
            ("Update required", "This version is no longer supported. Update to continue.")
        case .dnsNameNotFound:
            ("No such name", "The DNS server says this name does not exist.")
        case .dnsServerFailure:
            ("DNS server failure", "The DNS server could not answer for this name.")
        case .dnsAnswerTooLarge:
            ("DNS answer too large", "The DNS server's answer was too large to arrive whole.")
        case .certificateExpiring:
            ("Certificate expires soon", "The server's certificate expires soon. Renew it before it does.")
        case .certificateUntrusted:
            ("Certificate not trusted", "The server's certificate is not one a browser would trust.")
        case .pingMissed:
            ("No ping", "The job did not ping in time.")
        case .jobFailed:
            ("Job failed", "The job reported a failure.")
        case .domainExpiring:
            ("Domain expires soon", "The domain's registration expires soon. Renew it before it does.")
        case .domainExpired:
            ("Domain expired", "The domain's registration has expired. Renew it while the registrar still can.")
        case .domainNotRegistered:
            ("Domain not registered", "The registry has no registration for this domain.")
        case .noRDAPServer:
            ("No registration data", "No RDAP server is known for this domain's top-level domain, so its registration can't be checked.")
        case .containerNotRunning:
            ("Container not running", "The container exists but is not running.")
        case .containerUnhealthy:
            ("Container unhealthy", "The container runs, but its healthcheck fails.")
        case .containerNotFound:
            ("No such container", "The container engine has no container by this name.")
        case .queryFailed:
            ("Query failed", "The database answered the panel's query with an error.")
        case .serviceNotServing:
            ("Service not serving", "The service answers, but its health check says it is not serving.")
        case .unknown:
            ("Something went wrong", "An unexpected error happened.")
        }
    }
}
