import FoundationEssentials
import StateDeck

/// A domain's registration, from its registry's RDAP server (RFC 9082, RFC 9083): how long it
/// stays registered, with which registrar, and the registry's statuses.
///
/// The server is the one IANA's bootstrap file (RFC 9224) names for the domain's top-level domain,
/// kept in memory by ``RDAPBootstrapCache``, or the one `server` gives. Every request goes through
/// libcurl's engine (`HTTPClient.send`): a domain panel costs no thread of its own.
public struct DomainSource: Sendable, Hashable {
    /// The registered domain, lowercase, without a final dot: `example.com`.
    public var name: String
    /// A registration expiring sooner fails with `domainExpiring`.
    public var warnBefore: Duration
    /// An RDAP base URL asked instead of the one the bootstrap file names, ending in `/`.
    public var server: URL?
    /// The whole check's limit, a fetch of the bootstrap file included.
    public var timeout: Duration
    /// Where the bootstrap file comes from: IANA, or a test's own server.
    var bootstrapURL = RDAPBootstrap.ianaURL

    public init(name: String, warnBefore: Duration = .seconds(30 * 86_400), server: URL? = nil,
                timeout: Duration = .seconds(10)) {
        self.name = name
        self.warnBefore = warnBefore
        self.server = server
        self.timeout = timeout
    }

    /// Asks the registry's RDAP server for the domain; throws a `PanelError`, or
    /// `CancellationError` when the task is cancelled.
    public func load() async throws -> Info {
        let (base, took): (URL, Duration)
        if let server { (base, took) = (server, .zero) } else { (base, took) = try await bootstrapServer() }
        // A fetch of the bootstrap file took part of the limit: the panel's own is not much longer.
        let left = timeout - took
        guard left > .zero else {
            throw PanelError.timedOut(after: timeout, detail: "\(bootstrapURL.absoluteString): fetched with no time left to ask for \(name)")
        }
        let url = base.appending(path: "domain/\(name)")
        let request = RDAPRequest(url: url, timeout: left, checkTimeout: timeout)
        let response = try await request.send()
        let registry = "The RDAP server \(url.host ?? base.absoluteString)"
        if response.status == 404 { throw notRegistered(asking: url) }
        guard response.status == 200 else { throw request.statusFailure(response, of: registry) }
        guard let domain = RDAPDomain(parsing: response.body) else {
            throw PanelError(.invalidResponse, failureReason: "\(registry)'s answer is not an RDAP domain object.",
                             detail: "GET \(url.absoluteString): \(String(decoding: response.body, as: UTF8.self).excerpt(limit: 200))")
        }
        let now = Int(Date().timeIntervalSince1970)
        let detail = "GET \(url.absoluteString): expiration \(domain.expirationDate ?? "not published"), status \(domain.status?.joined(separator: ", ") ?? "not published")"
        let expiry = try expiry(of: domain, from: registry, detail: detail)
        if let expiry { try check(expiry: expiry, registrar: domain.registrar, now: now, detail: detail) }
        return info(domain, expiry: expiry, now: now)
    }

    /// The base URL the bootstrap file names for the domain, and the time fetching the file took.
    private func bootstrapServer() async throws -> (URL, Duration) {
        let (bootstrap, took) = try await RDAPBootstrapCache.shared.bootstrap(from: bootstrapURL, timeout: timeout)
        guard let server = bootstrap.server(for: name) else {
            let topLevel = name.split(separator: ".").last.map(String.init) ?? name
            throw PanelError(.noRDAPServer,
                             failureReason: "No RDAP server is known for .\(topLevel) domains, so \(name)'s registration can't be checked.",
                             recoverySuggestion: "If the registry of .\(topLevel) runs one, give its base URL as the panel's server.",
                             detail: "\(bootstrapURL.absoluteString) lists no server for \(topLevel)")
        }
        return (server, took)
    }

    /// The expiration event's instant in seconds since 1970, nil when the registry publishes none.
    private func expiry(of domain: RDAPDomain, from registry: String, detail: String) throws(PanelError) -> Int? {
        guard let written = domain.expirationDate else { return nil }
        do throws(ISO8601Time.Problem) {
            return Int(try ISO8601Time.parse(written).timeIntervalSince1970)
        } catch {
            throw PanelError(.invalidResponse, failureReason: "\(registry)'s expiration date \"\(written)\" is not a time.",
                             detail: detail)
        }
    }

    /// Throws `domainExpired` once `expiry` has passed, `domainExpiring` within `warnBefore` of it.
    func check(expiry: Int, registrar: String?, now: Int, detail: String) throws(PanelError) {
        let date = CivilDate(second: expiry)
        let renew = "Renew it with \(registrar ?? "its registrar")"
        if expiry <= now {
            throw PanelError(.domainExpired, failureReason: "\(name)'s registration expired on \(date.written).",
                             recoverySuggestion: "\(renew) now: once the registry's grace period ends, anyone may register it.",
                             detail: detail)
        }
        guard expiry - now < Int(warnBefore.components.seconds) else { return }
        throw PanelError(.domainExpiring,
                         failureReason: "\(name)'s registration expires \((expiry - now).whenDue), on \(date.writtenWithoutYear).",
                         recoverySuggestion: "\(renew) before then, or turn its automatic renewal on.", detail: detail)
    }

    /// "Registered for 143 more days"; Registrar, Expires and Status, each when the registry
    /// gives it. Whole days only: info that differs at every check is a change to record and send
    /// each time.
    func info(_ domain: RDAPDomain, expiry: Int?, now: Int) -> Info {
        var fields: [Info.Field] = []
        if let registrar = domain.registrar { fields.append(Info.Field("Registrar", registrar)) }
        if let expiry { fields.append(Info.Field("Expires", CivilDate(second: expiry).written)) }
        if let status = domain.status, !status.isEmpty { fields.append(Info.Field("Status", status.joined(separator: ", "))) }
        let summary = expiry.map { "Registered for \(($0 - now).wholeDays.counted("more day"))" }
            ?? "Registered; the registry publishes no expiry date"
        return Info(summary: summary, fields: fields)
    }

    private func notRegistered(asking url: URL) -> PanelError {
        PanelError(.domainNotRegistered, failureReason: "The registry's RDAP server has no domain \(name).",
                   recoverySuggestion: "Check the name: a registered domain (example.com), not a name under one (www.example.com)."
                       + (server == nil ? "" : " Check the panel's server too."),
                   detail: "GET \(url.absoluteString): 404")
    }
}
