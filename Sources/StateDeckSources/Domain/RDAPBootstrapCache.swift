import FoundationEssentials
import StateDeck

/// IANA's bootstrap file in memory, one copy for every domain panel: fetched when first needed and
/// again a day later. A copy that is due serves on while its successor is fetched, so the fetch
/// delays no check; a fetch that fails keeps the copy there is and is tried again an hour later, so
/// an outage at IANA changes no panel. Only without any copy does a failed fetch fail the check.
actor RDAPBootstrapCache {
    static let shared = RDAPBootstrapCache()

    /// How long a copy serves before it is fetched again.
    static let freshFor: TimeInterval = 86_400
    /// How long a copy serves on after a fetch failed, before the next try.
    static let retryAfter: TimeInterval = 3_600

    private struct Copy {
        var bootstrap: RDAPBootstrap
        /// When to fetch it again.
        var refetchAt: Date
    }

    /// By the file's URL: tests each serve their own.
    private var copies: [URL: Copy] = [:]
    /// The fetch under way for a URL, which every check needing it waits for.
    private var fetches: [URL: Task<(RDAPBootstrap, Duration), any Error>] = [:]

    /// The file at `url` as of `now`, and the time a fetch took for it (libcurl's, not counting a
    /// wait for its turn): zero for a copy. Without a copy it is fetched within `timeout`; a copy
    /// that is due is fetched again in the background.
    ///
    /// - Throws: the `PanelError` of a failed fetch when there is no copy to fall back on.
    func bootstrap(from url: URL, timeout: Duration, now: Date = Date()) async throws -> (bootstrap: RDAPBootstrap, took: Duration) {
        guard let copy = copies[url] else { return try await fetch(url, timeout: timeout, now: now).value }
        if now >= copy.refetchAt { _ = fetch(url, timeout: timeout, now: now) }
        return (copy.bootstrap, .zero)
    }

    /// Waits for the fetch of `url` under way, if any.
    func settle(_ url: URL) async {
        _ = await fetches[url]?.result
    }

    /// The fetch of `url` under way, or a new one; what it brings is kept as it ends.
    private func fetch(_ url: URL, timeout: Duration, now: Date) -> Task<(RDAPBootstrap, Duration), any Error> {
        if let fetch = fetches[url] { return fetch }
        let fetch = Task {
            defer { fetches[url] = nil }
            do {
                let (bootstrap, took) = try await Self.fetch(url, timeout: timeout)
                copies[url] = Copy(bootstrap: bootstrap, refetchAt: now.addingTimeInterval(Self.freshFor))
                return (bootstrap, took)
            } catch {
                copies[url]?.refetchAt = now.addingTimeInterval(Self.retryAfter)
                throw error
            }
        }
        fetches[url] = fetch
        return fetch
    }

    private static func fetch(_ url: URL, timeout: Duration) async throws -> (RDAPBootstrap, Duration) {
        let request = RDAPRequest(url: url, timeout: timeout)
        let response = try await request.send()
        let what = "The list of RDAP servers at \(url.absoluteString)"
        guard response.status == 200 else { throw request.statusFailure(response, of: what) }
        guard let bootstrap = RDAPBootstrap(parsing: response.body) else {
            throw PanelError(.invalidResponse, failureReason: "\(what) is not an RDAP bootstrap file (RFC 9224).",
                             detail: "GET \(url.absoluteString): \(String(decoding: response.body, as: UTF8.self).excerpt(limit: 200))")
        }
        return (bootstrap, response.duration)
    }
}
