import StateDeck

/// Pings a host: `count` ICMP echo requests over IPv4 or IPv6, `interval` apart, each answered
/// within `timeout` or lost. The info names the address; the round trips and the loss, which
/// differ at every check, are its readings (a measurement, never a change).
public struct PingSource: Sendable, Hashable {
    /// A name or an address.
    public var host: String
    /// Requests per check, from 1 to 10.
    public var count: Int
    /// Each request's limit, name resolution aside.
    public var timeout: Duration
    /// What the replies must show, all of it.
    public var conditions: [PingCondition]

    /// Between two requests of one check.
    public static let interval = Duration.milliseconds(200)

    /// Each request's limit unless the source gives one.
    public static let defaultTimeout = Duration.seconds(2)

    public init(host: String, count: Int = 3, timeout: Duration = defaultTimeout, conditions: [PingCondition] = []) {
        self.host = host
        self.count = count
        self.timeout = timeout
        self.conditions = conditions
    }

    /// The whole check's limit: the last request leaves `interval` after the one before it and
    /// has its `timeout`.
    public var checkTimeout: Duration { Self.interval * (count - 1) + timeout }

    /// One check; throws a `PanelError`, or `CancellationError` at once when the task is cancelled.
    ///
    /// The requests go out on the probe loop's one thread, through one ICMP socket per address
    /// family shared by every ping panel; a host name is first looked up on one of a few resolver
    /// threads (`NameResolver`).
    public func load() async throws -> Info {
        try info(for: try await PingProbe(host: host, count: count, timeout: timeout, interval: Self.interval).ping())
    }

    /// The info of `outcome`, or the error it comes to.
    func info(for outcome: Result<PingProbe.Report, PingProbe.Failure>) throws(PanelError) -> Info {
        let report: PingProbe.Report
        switch outcome {
        case .success(let value): report = value
        case .failure(.unresolved(let reason)): throw PanelError.unresolved(host, detail: reason)
        case .failure(.noRoute(let reason)): throw PanelError.noRoute(host, detail: "ping \(host): \(reason)")
        case .failure(.notPermitted(let reason)):
            throw PanelError(.unauthorized, failureReason: reason,
                             recoverySuggestion: "Let its group send pings (sysctl net.ipv4.ping_group_range=\"0 2147483647\" opens them to every group), or give it CAP_NET_RAW.",
                             detail: "ping \(host)")
        case .failure(.failed(let reason)):
            throw PanelError(.unreachable, failureReason: "The ping to \(host) could not be sent.", detail: "ping \(host): \(reason)")
        }
        let detail = "ping \(describe(report))"
        guard report.received > 0 else {
            if let unreachable = report.unreachable {
                let by = unreachable.reporter.map { " (said \($0))" } ?? ""
                throw PanelError(.unreachable, failureReason: "\(host) is unreachable: \(unreachable.reason)\(by).", detail: detail)
            }
            throw PanelError(.timeout, failureReason: "No answer to \(report.sent.counted("ping")) within \(timeout.shortText).",
                             detail: detail)
        }
        if let reason = conditions.lazy.compactMap({ $0.failure(of: report) }).first {
            throw PanelError(.checkFailed, failureReason: reason,
                             recoverySuggestion: "If the network is right, change the panel's expect in the deck file.",
                             detail: detail)
        }
        return Info(summary: "Reachable", fields: [Info.Field("Address", report.address)], readings: readings(of: report))
    }

    /// Round trips and loss, as the card shows them.
    func readings(of report: PingProbe.Report) -> [Info.Field] {
        let trips = [report.fastest, report.average, report.slowest].compactMap(\.self).map(Self.millisecondsText)
        return [Info.Field("Round trip (min / avg / max)", trips.joined(separator: " / ")),
                Info.Field("Loss", "\(PingCondition.percent(report.loss)) (\(report.sent - report.received) of \(report.sent))")]
    }

    /// "127.0.0.1: 3 sent, 2 answered, 0.052 ms on average".
    private func describe(_ report: PingProbe.Report) -> String {
        let average = report.average.map { ", \(Self.millisecondsText($0)) on average" } ?? ""
        return "\(host == report.address ? host : "\(host) (\(report.address))"): \(report.sent) sent, \(report.received) answered\(average)"
    }

    /// A round trip in milliseconds with three significant digits: "0.052 ms", "4.31 ms", "120 ms".
    static func millisecondsText(_ duration: Duration) -> String {
        let milliseconds = duration / .milliseconds(1)
        let decimals = milliseconds < 1 ? 3 : milliseconds < 10 ? 2 : milliseconds < 100 ? 1 : 0
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (milliseconds * scale).rounded() / scale
        return decimals == 0 ? "\(Int(rounded)) ms" : "\(rounded) ms"
    }
}
