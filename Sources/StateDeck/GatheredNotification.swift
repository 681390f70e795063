import FoundationEssentials

/// Several notifications decided for one target within its gathering window, told as one
/// message: its JSON is the webhook's body, a command's standard input and the page's
/// `notification` event (PROTOCOL.md, "Notifications"). A window that gathers one notification
/// tells it alone, as a ``DeckNotification``.
///
/// A target that bounds what it is handed (a command's standard input, a webhook's body) is
/// handed ``listing(within:)``: the notifications that fit, in order, and `more` counting the
/// rest, so that a storm of any size still goes out; `message` and `count` always tell them all.
///
/// | notifications gathered | `event` | `message` |
/// | --- | --- | --- |
/// | failures only | `failure` | "14 panels down: API, Web, Worker, and 11 more" |
/// | reminders only | `reminder` | "3 panels still down: API, Web, Worker" |
/// | recoveries only | `recovery` | "2 panels up again: API, Web" |
/// | flapping only | `flapping` | "2 panels flapping: API, Web" |
/// | more than one kind | `mixed` | each kind in that order, joined by "; ": "14 panels down: …; 2 up again: Mail, DNS" |
public struct GatheredNotification: Sendable, Hashable, Codable {
    public enum Event: String, Sendable, Hashable, Codable {
        case failure, reminder, recovery, flapping, mixed
    }

    /// The message's own id: a digest of its notifications' ids, so the same notifications sent
    /// again (after a restart, or by the next leader) carry the same one, and a message that
    /// gathers others too carries another (a receiver then drops repeats by each notification's).
    public var id: String
    public var event: Event
    /// One line for chat and mail, naming three panels at most.
    public var message: String
    /// When the window ended and the message was made.
    public var at: Date
    /// How many notifications were gathered, listed or not.
    public var count: Int
    /// Each notification as it would have been told alone, in the order decided: all of them, or
    /// in ``listing(within:)`` the first that fit.
    public var notifications: [DeckNotification]
    /// How many of `count` are not in `notifications`: 0 unless ``listing(within:)`` left some out.
    public var more = 0

    /// How many titles a message names before "and N more".
    static let namedTitles = 3

    public init(_ notifications: [DeckNotification], at: Date) {
        id = Array(SHA256.digest(Array(notifications.map { $0.id ?? "" }.joined(separator: "\n").utf8)).prefix(16)).lowercaseHex
        self.notifications = notifications
        self.at = at
        count = notifications.count
        let kinds: [(DeckNotification.Event, String)] = [(.failure, "down"), (.reminder, "still down"), (.recovery, "up again"),
                                                           (.flapping, "flapping")]
        let told = kinds.compactMap { kind, said -> (event: DeckNotification.Event, said: String, titles: [String])? in
            let titles = notifications.filter { $0.event == kind }.map(\.title)
            return titles.isEmpty ? nil : (kind, said, titles)
        }
        event = told.count == 1 ? Event(rawValue: told[0].event.rawValue) ?? .mixed : .mixed
        // Only the first part names what it counts: "14 panels down: …; 2 up again: …".
        message = told.enumerated().map { index, part in
            let noun = index > 0 ? "" : part.titles.count == 1 ? " panel" : " panels"
            return "\(part.titles.count)\(noun) \(part.said): \(Self.naming(part.titles))"
        }.joined(separator: "; ")
    }

    /// "API, Web, Worker, and 11 more"; every title when there are three or fewer.
    static func naming(_ titles: [String]) -> String {
        let named = titles.prefix(namedTitles).joined(separator: ", ")
        return titles.count > namedTitles ? "\(named), and \(titles.count - namedTitles) more" : named
    }

    /// The message and the first of its notifications whose JSON fits within `limit` bytes
    /// (none, when not even one does), `more` counting the rest; and that JSON.
    public func listing(within limit: Int) throws -> (listed: GatheredNotification, json: [UInt8]) {
        let encoder = DeckJSON.makeEncoder()
        func listingFirst(_ listed: Int) throws -> (GatheredNotification, [UInt8]) {
            var shortened = self
            shortened.notifications = Array(notifications.prefix(listed))
            shortened.more = count - listed
            return (shortened, Array(try encoder.encode(shortened)))
        }
        var fitting = try listingFirst(notifications.count)
        guard fitting.1.count > limit else { return fitting }
        // The JSON grows with each notification listed: the most that fit, found by halving.
        fitting = try listingFirst(0)
        var (fits, tooMany) = (0, notifications.count)
        while tooMany - fits > 1 {
            let middle = (fits + tooMany) / 2
            let tried = try listingFirst(middle)
            if tried.1.count <= limit {
                (fits, fitting) = (middle, tried)
            } else {
                tooMany = middle
            }
        }
        return fitting
    }

    /// The panels' ids, in the order decided, each once.
    public var panels: [String] {
        var seen = Set<String>()
        return notifications.map(\.panel).filter { seen.insert($0).inserted }
    }
}
