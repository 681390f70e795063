import FoundationEssentials
import HTTPClient
import StateDeck

/// Tells a notification by POSTing its JSON to a URL, through the http sources' libcurl engine.
/// An answer other than 2xx, or none, is tried again after each of `retryDelays`, then given up;
/// a test send (``attempt(_:)``) is one POST. A gathered message's body lists the notifications
/// that fit within ``maximumBody`` and counts the rest (``GatheredNotification/listing(within:)``).
public struct WebhookTarget: NotificationTarget {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let url: URL
    public let headers: [String: String]
    public let retryDelays: [Duration]
    public let timeout: Duration

    /// The largest body a gathered message is posted in: the 1 MiB that receivers commonly take
    /// by default (nginx's `client_max_body_size`), so a storm is told rather than refused.
    public static let maximumBody = 1 << 20

    /// Retried after 1 s, 5 s and 25 s: a receiver restarting is caught, a dead one given up
    /// within half a minute.
    public init(url: URL, headers: [String: String] = [:], retryDelays: [Duration] = [.seconds(1), .seconds(5), .seconds(25)],
                timeout: Duration = .seconds(10)) {
        self.url = url
        self.headers = headers
        self.retryDelays = retryDelays
        self.timeout = timeout
    }

    public var name: String { "webhook \(url.host ?? url.absoluteString)" }

    /// Its method, URL and headers: entries posting to the same URL with the same headers gather.
    public var address: String {
        (["webhook POST", url.absoluteString] + headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })
            .joined(separator: "\n")
    }

    public func deliver(_ notification: DeckNotification) async throws {
        try await post(Array(DeckJSON.makeEncoder().encode(notification)), id: notification.id)
    }

    /// Posts the gathered message's JSON, as one notification's, listing what fits ``maximumBody``.
    public func deliver(_ gathered: GatheredNotification) async throws {
        try await post(gathered.listing(within: Self.maximumBody).json, id: gathered.id)
    }

    /// One POST, not retried: "webhook hooks.example: HTTP 500" when it fails.
    public func attempt(_ notification: DeckNotification) async throws {
        let body = try Array(DeckJSON.makeEncoder().encode(notification))
        if let refused = await send(request(posting: body, id: notification.id)) {
            throw Failure(description: "\(name): \(refused)")
        }
    }

    /// Posts `body` until a 2xx answers, each attempt under the same `Idempotency-Key`.
    private func post(_ body: [UInt8], id: String?) async throws {
        let request = request(posting: body, id: id)
        var failure = ""
        for delay in [Duration.zero] + retryDelays {
            try await Task.sleep(for: delay)
            guard let refused = await send(request) else { return }
            failure = refused
        }
        throw Failure(description: "\(name): \(failure), after \(retryDelays.count + 1) attempts")
    }

    /// The POST of `body`, a JSON document, under the notification's `id` as its `Idempotency-Key`.
    private func request(posting body: [UInt8], id: String?) -> HTTPClientRequest {
        let fields = [("Content-Type", "application/json"), ("User-Agent", "StateDeck")]
            + (id.map { [("Idempotency-Key", $0)] } ?? [])
            + headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return HTTPClientRequest(url: url.absoluteString, method: "POST", headers: fields.map { (name: $0.0, value: $0.1) },
                                 body: body, timeout: timeout)
    }

    /// Sends `request` once: nil when answered with a 2xx, otherwise what went wrong.
    private func send(_ request: HTTPClientRequest) async -> String? {
        do {
            let answer = try await HTTPClient.send(request)
            return (200..<300).contains(answer.status) ? nil : "HTTP \(answer.status)"
        } catch {
            return error.message
        }
    }
}

extension NotificationTarget where Self == WebhookTarget {
    /// A webhook, as the DSL names it: `.notify(.webhook(url), .failures(3))`.
    public static func webhook(_ url: URL, headers: [String: String] = [:]) -> WebhookTarget {
        WebhookTarget(url: url, headers: headers)
    }
}
