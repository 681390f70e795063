import FoundationEssentials
import HTTPClient
import StateDeck

/// Loads an http(s) endpoint: the status, and fields picked from a JSON body or an excerpt of a
/// text body. Failures are the catalogue's kinds (see `HTTPSource+Failures.swift`); an answer
/// its conditions reject is `checkFailed`.
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
    /// `url` as a deck file writes it, `${VAR}`s not substituted, when that differs; nil otherwise.
    public var writtenURL: String?
    /// `url` as cards and messages show it, since an error card reaches every viewer of the
    /// dashboard: as the deck file writes it (the environment's values may be secrets), and
    /// without the user and password it may carry.
    public var shownURL: String {
        let text = writtenURL ?? url.absoluteString
        guard let schemeEnd = text.firstRange(of: "://") else { return text }
        let authority = text[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
        guard let userEnd = authority.lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound] + text[text.index(after: userEnd)...])
    }
    /// `GET` by default.
    public var method: String
    /// Sent with every request.
    public var headers: [String: String]
    /// The request body, if any.
    public var body: String?
    /// The whole exchange's limit, connecting included; a request waiting for its turn behind the
    /// per-host limit starts counting when the turn comes.
    public var timeout: Duration
    /// What the answer must show, all of it; without a status condition, the status must be 2xx.
    public var conditions: [ResponseCondition]
    /// Fields shown from a JSON body, in order; none shows an excerpt of the body instead.
    public var picks: [Pick]
    /// A PEM file of roots trusted instead of the system's; nil for the system's. Set in Swift
    /// only (a test's own CA): a deck file's http panel trusts the system's roots.
    public var trustedRoots: String?

    /// A source requesting `url`.
    public init(
        url: URL,
        method: String = "GET",
        headers: [String: String] = [:],
        body: String? = nil,
        timeout: Duration = .seconds(10),
        conditions: [ResponseCondition] = [],
        picks: [Pick] = []
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.conditions = conditions
        self.picks = picks
    }

    /// One request; throws a `PanelError`, or `CancellationError` when the task was cancelled.
    /// A request waiting for its turn behind the per-host limit shows its panel as queued. The
    /// answer is judged, and its info read, off Swift's shared pool (``ConditionEvaluation``).
    public func load() async throws -> Info {
        let response: HTTPClientResponse
        var request = HTTPClientRequest(
            url: url.absoluteString, method: method, headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            body: body.map { Array($0.utf8) }, timeout: timeout, maxBodySize: Self.maxBodySize,
            maxHeaderSize: Self.maxHeaderSize, maxHeaderCount: Self.maxHeaderCount)
        request.readsCertificate = url.scheme?.lowercased() == "https"
        request.trustedRoots = trustedRoots
        do {
            response = try await HTTPClient.send(request, waiting: LoadProgress.waitingForTurn)
        } catch {
            throw try failure(for: error)
        }
        let exchange = HTTPExchange(source: self, response: response)
        return try await ConditionEvaluation.run {
            Result { () throws(PanelError) in
                try exchange.validate()
                return try exchange.info()
            }
        }.get()
    }

    /// A longer answer is an invalid response: a status endpoint never needs more, and the body is
    /// held in memory to be checked.
    public static let maxBodySize = 1 << 20
    /// Longer headers (status line included) are an invalid response too; libcurl refuses one
    /// header over 100 KiB itself.
    public static let maxHeaderSize = 64 << 10
    /// More header fields are an invalid response: a service sends a few dozen at most.
    public static let maxHeaderCount = 500
}
