import HTTPClient
import StateDeck

/// Asks a gRPC server's standard health service whether a service is serving
/// (`grpc.health.v1.Health/Check`): one HTTP/2 call through libcurl, on the http engine's thread,
/// over h2c (HTTP/2 without TLS, which a gRPC server expects at once) or TLS.
public struct GRPCSource: Sendable, Hashable {
    /// A name or an address.
    public var host: String
    public var port: Int
    /// The service asked about, as the server registered it (`package.Service`); empty for the
    /// server as a whole.
    public var service: String
    /// TLS, with the server's certificate verified, rather than plain h2c.
    public var tls: Bool
    /// The call's limit, connecting included.
    public var timeout: Duration
    /// A PEM file of roots trusted instead of the system's: a private CA's.
    public var trustedRoots: String?

    public init(host: String, port: Int, service: String = "", tls: Bool = false, timeout: Duration = .seconds(10),
                trustedRoots: String? = nil) {
        self.host = host
        self.port = port
        self.service = service
        self.tls = tls
        self.timeout = timeout
        self.trustedRoots = trustedRoots
    }

    /// One call; throws a `PanelError`, or `CancellationError` at once when the task is cancelled.
    public func load() async throws -> Info {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var request = HTTPClientRequest(url: "\(tls ? "https" : "http")://\(authority)\(GRPCHealthCheck.path)", method: "POST",
                                        headers: [("content-type", "application/grpc"), ("te", "trailers")],
                                        body: GRPCHealthCheck.requestBody(service: service), timeout: timeout,
                                        maxBodySize: 64 << 10)
        request.http2PriorKnowledge = true
        request.trustedRoots = trustedRoots
        let answer: HTTPClientResponse
        do {
            answer = try await HTTPClient.send(request)
        } catch {
            throw try failure(for: error)
        }
        return try info(for: answer)
    }

    /// "deck.Orders", or "the server" for the server as a whole.
    var named: String { service.isEmpty ? "The server" : service }

    /// "localhost:50051 (deck.Orders)", for a card's detail.
    var call: String { "\(host):\(port) \(GRPCHealthCheck.path)(\(service.quoted))" }

    /// The info of a call's answer: up for `SERVING`, else the card the answer tells.
    func info(for answer: HTTPClientResponse) throws(PanelError) -> Info {
        let contentType = answer.header("content-type") ?? ""
        guard answer.status == 200, contentType.hasPrefix("application/grpc") else {
            throw PanelError(.invalidResponse,
                             failureReason: "\(host):\(port) answered HTTP \(answer.status)\(contentType.isEmpty ? "" : " (\(contentType))"), not gRPC.",
                             detail: "\(call): HTTP \(answer.status)")
        }
        guard let code = answer.header("grpc-status").flatMap({ Int($0) }) else {
            throw PanelError(.invalidResponse, failureReason: "\(host):\(port) answered without a grpc-status.",
                             detail: "\(call): no grpc-status")
        }
        let message = answer.header("grpc-message").map { $0.isEmpty ? "" : ": \($0)" } ?? ""
        let detail = "\(call): grpc-status \(code) (\(Self.statusName(code)))\(message)"
        guard code == 0 else { throw failure(status: code, detail: detail) }
        guard let status = GRPCHealthCheck.servingStatus(in: answer.body) else {
            throw PanelError(.invalidResponse, failureReason: "\(host):\(port)'s answer is not a health check's.",
                             detail: "\(call): \(answer.body.count) bytes that are not a HealthCheckResponse")
        }
        let statusDetail = "\(call): \(status.name)"
        switch status {
        case .serving:
            return Info(summary: "Serving", fields: [Info.Field("Service", service.isEmpty ? "(the whole server)" : service),
                                                     Info.Field("Address", "\(host):\(port)")])
        case .notServing:
            throw PanelError(.serviceNotServing, failureReason: "\(named) is not serving (NOT_SERVING).", detail: statusDetail)
        case .unknown:
            throw PanelError(.serviceNotServing, failureReason: "\(named) does not know whether it is serving (UNKNOWN).",
                             detail: statusDetail)
        case .serviceUnknown:
            throw notFound(detail: statusDetail)
        }
    }

    /// The card of a call the server answered with a gRPC error.
    private func failure(status code: Int, detail: String) -> PanelError {
        switch code {
        case 5: notFound(detail: detail)
        case 12:
            PanelError(.notFound, failureReason: "\(host):\(port) has no health service (UNIMPLEMENTED).",
                       recoverySuggestion: "Register grpc.health.v1.Health on the server, or check it with a tcp panel.",
                       detail: detail)
        case 4: PanelError(.timeout, failureReason: "The health check took longer than the server allows (DEADLINE_EXCEEDED).", detail: detail)
        case 14: PanelError(.unreachable, failureReason: "\(host):\(port) is unavailable (UNAVAILABLE).", detail: detail)
        case 7, 16: PanelError(.unauthorized, failureReason: "\(host):\(port) refused the health check (\(Self.statusName(code))).",
                               detail: detail)
        default: PanelError(.serverError, failureReason: "\(host):\(port) failed the health check (\(Self.statusName(code))).",
                            detail: detail)
        }
    }

    private func notFound(detail: String) -> PanelError {
        PanelError(.notFound, failureReason: "The health service of \(host):\(port) does not know \(service.quoted).",
                   recoverySuggestion: "Check the service's name: the full name the server registered, like package.Service.",
                   detail: detail)
    }

    /// The card of a call that got no gRPC answer.
    ///
    /// - Throws: `CancellationError` when the call was cancelled.
    func failure(for error: HTTPClientError) throws(CancellationError) -> PanelError {
        let detail = "\(call): \(error.message)"
        if let failure = try PanelError.connection(error, host: host, port: port, timeout: timeout, detail: detail) {
            return failure
        }
        switch error.reason {
        case .certificateRejected(let problem):
            return PanelError(.certificateUntrusted, failureReason: "\(host)'s certificate is not trusted: \(problem.reason).",
                              detail: detail)
        case .insecure:
            return PanelError(.unreachable, failureReason: "\(host):\(port) refused the TLS handshake.", detail: detail)
        case .invalidAnswer, .connectionLost:
            return PanelError(.invalidResponse, failureReason: "\(host):\(port) does not answer in gRPC (HTTP/2\(tls ? "" : " without TLS")).",
                              detail: detail)
        default:
            return PanelError(.unknown, detail: detail)
        }
    }

    /// The name of a gRPC status code: "UNAVAILABLE".
    static func statusName(_ code: Int) -> String {
        let names = ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
                     "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
                     "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"]
        return names.indices.contains(code) ? names[code] : "code \(code)"
    }
}
