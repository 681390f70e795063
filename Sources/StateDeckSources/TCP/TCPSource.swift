import StateDeck

/// Checks that something accepts TCP connections at a host and port; the info is the time the
/// connection took. The connection is closed at once, without a byte sent.
public struct TCPSource: Sendable, Hashable {
    /// A name or an address.
    public var host: String
    /// From 1 to 65535.
    public var port: Int
    /// The connection attempt's limit, name resolution aside.
    public var timeout: Duration

    /// A source connecting to `host`:`port`.
    public init(host: String, port: Int, timeout: Duration = .seconds(10)) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    /// One connection attempt; throws a `PanelError`, or `CancellationError` at once when the
    /// task is cancelled.
    ///
    /// The connection is made on the probe loop's one thread, shared by every probe; a host name
    /// is first looked up on one of a few resolver threads (`NameResolver`), so a lookup that
    /// hangs holds up no other probe.
    public func load() async throws -> Info {
        let outcome = try await TCPProbe(host: host, port: port, timeout: timeout).connect()
        let address = "\(host):\(port)"
        switch outcome {
        case .success:
            // The connect time is the load's duration: a field of it would make every check a change.
            return Info(summary: "Port \(port) open", fields: [Info.Field("Address", address)])
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
