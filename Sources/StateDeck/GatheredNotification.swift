import FoundationEssentials

/// Several notifications decided for one target within its gathering window, told as one
/// message: its JSON is the webhook's body, a command's standard input and the page's
/// `notification` event (PROTOCOL.md, "Notifications"). A window that gathers one notification
/// tells it alone, as a ``DeckNotification``.
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

    public var event: Event
    /// One line for chat and mail, naming three panels at most.
    public var message: String
    /// When the window ended and the message was made.
    public var at: Date
    public var count: Int
    /// Each notification as it would have been told alone, in the order decided.
    public var notifications: [DeckNotification]

    /// How many titles a message names before "and N more".
    static let namedTitles = 3

    public init(_ notifications: [DeckNotification], at: Date) {
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

    /// The panels' ids, in the order decided, each once.
    public var panels: [String] {
        var seen = Set<String>()
        return notifications.map(\.panel).filter { seen.insert($0).inserted }
    }
}
