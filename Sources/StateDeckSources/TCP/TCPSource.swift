import StateDeck

/// Checks that something accepts TCP connections at a host and port, and, when its conditions
/// name a banner, reads the first line the service sends. The connection is closed then, without
/// a byte sent.
public struct TCPSource: Sendable, Hashable {
    /// A name or an address.
    public var host: String
    /// From 1 to 65535.
    public var port: Int
    /// The connection attempt's limit, the banner's reading included, name resolution aside.
    public var timeout: Duration
    /// What the connection must show, all of it.
    public var conditions: [ConnectionCondition]

    /// A source connecting to `host`:`port`.
    public init(host: String, port: Int, timeout: Duration = .seconds(10), conditions: [ConnectionCondition] = []) {
        self.host = host
        self.port = port
        self.timeout = timeout
        self.conditions = conditions
    }

    /// One connection attempt; throws a `PanelError`, or `CancellationError` at once when the
    /// task is cancelled.
    ///
    /// The connection is made on the probe loop's one thread, shared by every probe; a host name
    /// is first looked up on one of a few resolver threads (`NameResolver`), so a lookup that
    /// hangs holds up no other probe. The banner is judged against the conditions off Swift's
    /// shared pool (``ConditionEvaluation``).
    public func load() async throws -> Info {
        let readsBanner = conditions.contains { if case .banner = $0 { true } else { false } }
        let outcome = try await TCPProbe(host: host, port: port, timeout: timeout, readsBanner: readsBanner).connect()
        let address = "\(host):\(port)"
        switch outcome {
        case .success(let connection):
            let detail = connection.banner.map { "\(address) sent: \($0)" } ?? "connect \(address)"
            let failure = conditions.isEmpty ? nil : try await ConditionEvaluation.run {
                conditions.lazy.compactMap { $0.failure(of: connection) }.first
            }
            if let reason = failure {
                throw PanelError(.checkFailed, failureReason: reason,
                                 recoverySuggestion: "If the service is right, change the panel's expect in the deck file.",
                                 detail: detail)
            }
            // The connect time is the load's duration: a field of it would make every check a change.
            let banner = connection.banner.map { [Info.Field("Banner", $0.excerpt(limit: 200))] } ?? []
            return Info(summary: "Port \(port) open", fields: [Info.Field("Address", address)] + banner)
        case .failure(.silent):
            throw PanelError(.timeout, failureReason: "\(address) accepted the connection but sent no banner within \(timeout.shortText).",
                             detail: "connect \(address): no banner")
        case .failure(.refused):
            throw PanelError.refused(host, port, detail: "connect \(address): connection refused")
        case .failure(.timedOut):
            throw PanelError.timedOut(after: timeout, detail: "connect \(address): no answer")
        case .failure(.unresolved(let reason)):
            throw PanelError.unresolved(host, detail: reason)
        case .failure(.noRoute(let reason)):
            throw PanelError.noRoute(host, detail: reason)
        case .failure(.failed(let reason)):
            throw PanelError.connectFailed(host, port, detail: reason)
        }
    }
}
