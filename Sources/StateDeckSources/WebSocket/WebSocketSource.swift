import FoundationEssentials
import StateDeck

/// Checks a WebSocket endpoint (`ws://`, `wss://`): the upgrade accepted, with the right
/// `Sec-WebSocket-Accept`, then, when the source has a message, that text sent and the server's
/// next message checked against the conditions; a close frame ends the exchange.
///
/// The exchange runs on the probe loop's one thread, as tcp and ping probes do, with framing of
/// its own (RFC 6455) and, for `wss://`, OpenSSL's TLS over the same non-blocking socket
/// (`TLSChannel`): libcurl 7.88 has no WebSocket support, and its raw connections
/// (`CURLOPT_CONNECT_ONLY`) would take a thread waiting on each.
public struct WebSocketSource: Sendable, Hashable {
    /// A `ws` or `wss` URL.
    public var url: URL
    /// A text message sent once the upgrade is accepted; nil to check the upgrade alone.
    public var message: String?
    /// The whole exchange's limit, name resolution aside.
    public var timeout: Duration
    /// What the exchange must show, all of it.
    public var conditions: [MessageCondition]
    /// A PEM file of roots trusted instead of the system's, for `wss://`: a private CA's.
    public var trustedRoots: String?

    public init(url: URL, message: String? = nil, timeout: Duration = .seconds(10), conditions: [MessageCondition] = [],
                trustedRoots: String? = nil) {
        self.url = url
        self.message = message
        self.timeout = timeout
        self.conditions = conditions
        self.trustedRoots = trustedRoots
    }

    var host: String { url.host ?? "" }
    var isSecure: Bool { url.scheme?.lowercased() == "wss" }
    var port: Int { url.port ?? (isSecure ? 443 : 80) }

    /// One exchange; throws a `PanelError`, or `CancellationError` at once when the task is
    /// cancelled. The answer is judged against the conditions off Swift's shared pool
    /// (``ConditionEvaluation``).
    public func load() async throws -> Info {
        let written = url.absoluteString
        let path = url.path.isEmpty ? "/" : url.path
        let target = url.query.map { "\(path)?\($0)" } ?? path
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let probe = WebSocketProbe(host: host, port: port, secure: isSecure, target: target,
                                   authority: url.port.map { "\(bracketed):\($0)" } ?? bracketed, message: message,
                                   timeout: timeout, trustedRoots: trustedRoots)
        let exchange = try exchange(of: try await probe.run(), url: written)
        let failure = conditions.isEmpty ? nil : try await ConditionEvaluation.run {
            conditions.lazy.compactMap { $0.failure(of: exchange) }.first
        }
        if let reason = failure {
            throw PanelError(.checkFailed, failureReason: reason,
                             recoverySuggestion: "If the service is right, change the panel's expect in the deck file.",
                             detail: describe(exchange, url: written))
        }
        var fields = [Info.Field("URL", written)]
        if let answer = exchange.answer { fields.append(Info.Field("Answer", answer.excerpt(limit: 200))) }
        let time = exchange.answerTime.map { Info.Field("Answer time", PingSource.millisecondsText($0)) }
            ?? Info.Field("Upgrade time", PingSource.millisecondsText(exchange.upgradeTime))
        return Info(summary: message == nil ? "Upgrade accepted" : "Answered", fields: fields, readings: [time])
    }

    /// The exchange of `outcome`, or the error it comes to.
    func exchange(of outcome: Result<WebSocketProbe.Exchange, WebSocketProbe.Failure>,
                  url: String) throws(PanelError) -> WebSocketProbe.Exchange {
        let address = "\(host):\(port)"
        switch outcome {
        case .success(let exchange): return exchange
        case .failure(.connect(.refused)): throw PanelError.refused(host, port, detail: "connect \(address): connection refused")
        case .failure(.connect(.timedOut)), .failure(.connect(.silent)):
            throw PanelError.timedOut(after: timeout, detail: "\(url): no upgrade within \(timeout.shortText)")
        case .failure(.connect(.unresolved(let reason))): throw PanelError.unresolved(host, detail: reason)
        case .failure(.connect(.noRoute(let reason))): throw PanelError.noRoute(host, detail: reason)
        case .failure(.connect(.failed(let reason))): throw PanelError.connectFailed(host, port, detail: reason)
        case .failure(.failed(let reason)):
            throw PanelError(.unreachable, failureReason: "The connection to \(address) broke.", detail: "\(url): \(reason)")
        case .failure(.tls(let reason, untrusted: true)):
            throw PanelError(.certificateUntrusted, failureReason: "\(host)'s certificate is not trusted: \(reason).",
                             detail: "\(url): \(reason)")
        case .failure(.tls(let reason, untrusted: false)):
            throw PanelError(.unreachable, failureReason: "\(address) refused the TLS handshake.", detail: "\(url): \(reason)")
        case .failure(.upgradeRefused(let status, let reason)):
            let kind: ErrorKind = switch status {
            case 401, 403: .unauthorized
            case 404, 410: .notFound
            case 503: .serverMaintenance
            case 500...: .serverError
            default: .invalidResponse
            }
            let written = reason.isEmpty ? "\(status)" : "\(status) \(reason)"
            throw PanelError(kind, failureReason: "\(address) refused the WebSocket upgrade: HTTP \(written).",
                             detail: "\(url): HTTP \(written)")
        case .failure(.wrongAccept(let accept)):
            throw PanelError(.invalidResponse, failureReason: "\(address) accepted the upgrade with the wrong Sec-WebSocket-Accept.",
                             detail: "\(url): Sec-WebSocket-Accept \(accept.map(\.quoted) ?? "missing")")
        case .failure(.notHTTP(let line)):
            throw PanelError(.invalidResponse, failureReason: "\(address) did not answer the upgrade in HTTP.",
                             detail: "\(url): \(line.excerpt(limit: 100))")
        case .failure(.noAnswer):
            throw PanelError(.timeout, failureReason: "No answer to the message within \(timeout.shortText).",
                             detail: "\(url): sent \((message ?? "").excerpt(limit: 100).quoted), no answer")
        case .failure(.closedBeforeAnswer(let code)):
            throw PanelError(.invalidResponse, failureReason: "\(address) closed the WebSocket before answering.",
                             detail: "\(url): closed\(code.map { " with code \($0)" } ?? "")")
        case .failure(.badFrame(let reason)):
            throw PanelError(.invalidResponse, failureReason: "\(address) sent a frame WebSocket does not allow.",
                             detail: "\(url): \(reason)")
        }
    }

    /// "ws://localhost:8080/live answered "pong" in 1.2 ms", for a card's detail.
    private func describe(_ exchange: WebSocketProbe.Exchange, url: String) -> String {
        let answer = exchange.answer.map { " answered \($0.excerpt(limit: 100).quoted)" } ?? " accepted the upgrade"
        return "\(url)\(answer) in \(PingSource.millisecondsText(exchange.totalTime))"
    }
}
