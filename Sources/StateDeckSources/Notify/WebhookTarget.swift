import FoundationEssentials
import HTTPClient
import StateDeck

/// Tells a notification by POSTing its JSON to a URL, through the http sources' libcurl engine.
/// An answer other than 2xx, or none, is tried again after each of `retryDelays`, then given up.
public struct WebhookTarget: NotificationTarget {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let url: URL
    public let headers: [String: String]
    public let retryDelays: [Duration]
    public let timeout: Duration

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
        try await post(Array(DeckJSON.makeEncoder().encode(notification)))
    }

    /// Posts the gathered message's JSON, as one notification's.
    public func deliver(_ gathered: GatheredNotification) async throws {
        try await post(Array(DeckJSON.makeEncoder().encode(gathered)))
    }

    private func post(_ body: [UInt8]) async throws {
        let fields = [("Content-Type", "application/json"), ("User-Agent", "StateDeck")]
            + headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let request = HTTPClientRequest(url: url.absoluteString, method: "POST", headers: fields.map { (name: $0.0, value: $0.1) },
                                        body: body, timeout: timeout)
        var failure = ""
        for delay in [Duration.zero] + retryDelays {
            try await Task.sleep(for: delay)
            do {
                let answer = try await HTTPClient.send(request)
                if (200..<300).contains(answer.status) { return }
                failure = "HTTP \(answer.status)"
            } catch {
                failure = error.message
            }
        }
        throw Failure(description: "\(name): \(failure), after \(retryDelays.count + 1) attempts")
    }
}

extension NotificationTarget where Self == WebhookTarget {
    /// A webhook, as the DSL names it: `.notify(.webhook(url), .failures(3))`.
    public static func webhook(_ url: URL, headers: [String: String] = [:]) -> WebhookTarget {
        WebhookTarget(url: url, headers: headers)
    }
}
