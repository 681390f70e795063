import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StateDeck

/// Loads an http(s) endpoint: the status and latency, and fields picked from a JSON body or an
/// excerpt of a text body. Failures are the catalogue's kinds (see `HTTPSource+Failures.swift`).
public struct HTTPSource: Sendable, Hashable {
    /// A field picked from a JSON body.
    public struct Pick: Sendable, Hashable {
        /// The field's label in the panel.
        public var label: String
        /// Where the value is in the body.
        public var pointer: JSONPointer

        /// Shows the value at `pointer` as `label`.
        public init(label: String, pointer: JSONPointer) {
            self.label = label
            self.pointer = pointer
        }
    }

    /// An http or https URL.
    public var url: URL
    /// `GET` by default.
    public var method: String
    /// Sent with every request.
    public var headers: [String: String]
    /// The request body, if any.
    public var body: String?
    /// The whole exchange's limit, connecting included.
    public var timeout: Duration
    /// The statuses that count as success; nil for any 2xx.
    public var expectedStatuses: Set<Int>?
    /// What the body must contain, beyond the status.
    public var check: ResponseCheck?
    /// Fields shown from a JSON body, in order; none shows an excerpt of the body instead.
    public var picks: [Pick]

    /// A source requesting `url`.
    public init(
        url: URL,
        method: String = "GET",
        headers: [String: String] = [:],
        body: String? = nil,
        timeout: Duration = .seconds(10),
        expectedStatuses: Set<Int>? = nil,
        check: ResponseCheck? = nil,
        picks: [Pick] = []
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.expectedStatuses = expectedStatuses
        self.check = check
        self.picks = picks
    }

    /// One request; throws a `PanelError`, or `CancellationError` when the task was cancelled.
    public func load() async throws -> Info {
        let started = ContinuousClock.now
        let (body, response) = try await withDeadline()
        let exchange = HTTPExchange(source: self, response: response, body: body,
                                    latency: ContinuousClock.now - started)
        try exchange.validate()
        return try exchange.info()
    }

    /// Shared by every http source: an ephemeral session keeps no cookies or cache between loads.
    private static let session = URLSession(configuration: .ephemeral)

    /// The exchange within `timeout`: `URLRequest.timeoutInterval` is only an idle timeout, and
    /// FoundationNetworking rounds it down to whole seconds.
    private func withDeadline() async throws -> (Data, HTTPURLResponse) {
        try await withThrowingTaskGroup { group in
            group.addTask { try await exchange() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw PanelError.timedOut(after: timeout, detail: "\(method) \(url.absoluteString)")
            }
            defer { group.cancelAll() }
            // The first to finish wins; the group always has both.
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    private func exchange() async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: timeout.seconds)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        headers.forEach { request.setValue($0.value, forHTTPHeaderField: $0.key) }
        do {
            let (data, response) = try await Self.session.data(for: request)
            guard let response = response as? HTTPURLResponse else {
                throw PanelError(.invalidResponse, failureReason: "The answer is not HTTP.")
            }
            return (data, response)
        } catch let error as URLError {
            throw try failure(for: error)
        }
    }
}
