import FoundationEssentials
import Locking
import StateDeck

/// The last ``capacity`` notifications decided for `notify:` targets and what became of each,
/// newest first: what `GET /api/notify/log` answers. One log outlives the notifiers of a served
/// deck (an edited deck file replaces the notifier, not its log). The page's desktop
/// notifications are not in it, as they are not counted.
///
/// | outcome | when | `why` |
/// | --- | --- | --- |
/// | `waiting` | decided; in its target's gathering window, or behind a message being sent | null |
/// | `sent` | delivered alone | null |
/// | `gathered` | delivered in one message with others | "with 13 others" |
/// | `failed` | the target gave up on it (or on the message it was in) | the target's failure |
/// | `dropped` | never sent: over its target's limit, too old after a restart, or replaced by a newer notification of the same entry before it went out | why |
/// | `held`, `silent` | not told, for a reason another part of StateDeck gives through ``record(_:)`` | that reason |
public final class NotificationLog: Sendable {
    public enum Outcome: Sendable, Hashable {
        case waiting
        case sent
        /// Told in one message with `others` more.
        case gathered(others: Int)
        case failed(String)
        case dropped(String)
        case held(String)
        case silent(String)

        /// The outcome's name on the wire.
        public var name: String {
            switch self {
            case .waiting: "waiting"
            case .sent: "sent"
            case .gathered: "gathered"
            case .failed: "failed"
            case .dropped: "dropped"
            case .held: "held"
            case .silent: "silent"
            }
        }

        /// A short reason, or nil.
        public var why: String? {
            switch self {
            case .waiting, .sent: nil
            case .gathered(let others): "with \(others) \(others == 1 ? "other" : "others")"
            case .failed(let why), .dropped(let why), .held(let why), .silent(let why): why
            }
        }
    }

    public struct Entry: Sendable, Hashable, Encodable {
        public var at: Date
        public var event: DeckNotification.Event
        public var panels: [String]
        public var message: String
        /// The target's name: "webhook hooks.example".
        public var target: String
        public var outcome: Outcome

        public init(at: Date, event: DeckNotification.Event, panels: [String], message: String, target: String,
                    outcome: Outcome) {
            self.at = at
            self.event = event
            self.panels = panels
            self.message = message
            self.target = target
            self.outcome = outcome
        }

        /// `notification`, decided for `target`.
        public init(_ notification: DeckNotification, target: String, outcome: Outcome) {
            self.init(at: notification.at, event: notification.event, panels: [notification.panel],
                      message: notification.message, target: target, outcome: outcome)
        }

        private enum CodingKeys: String, CodingKey {
            case at, event, panels, message, target, outcome, why
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(at, forKey: .at)
            try container.encode(event, forKey: .event)
            try container.encode(panels, forKey: .panels)
            try container.encode(message, forKey: .message)
            try container.encode(target, forKey: .target)
            try container.encode(outcome.name, forKey: .outcome)
            try container.encode(outcome.why, forKey: .why)
        }
    }

    /// How many entries the log keeps.
    public static let capacity = 200

    private struct Entries {
        /// Oldest first; at most `capacity`.
        var ring: [Entry] = []
        /// The place in `ring` of the oldest entry.
        var start = 0
        /// How many entries were ever recorded: an entry's number is its count then.
        var recorded = 0
        /// The number of each delivery's entry, while it may still be in the ring.
        var numbers: [PendingDelivery.ID: Int] = [:]

        mutating func append(_ entry: Entry, for delivery: PendingDelivery.ID?) {
            if ring.count < NotificationLog.capacity {
                ring.append(entry)
            } else {
                ring[start] = entry
                start = (start + 1) % NotificationLog.capacity
            }
            recorded += 1
            if let delivery { numbers[delivery] = recorded - 1 }
            if numbers.count > 2 * NotificationLog.capacity { numbers = numbers.filter { place(of: $0.value) != nil } }
        }

        /// Where entry `number` is in `ring`, nil once it left.
        func place(of number: Int) -> Int? {
            let age = recorded - 1 - number
            guard age < ring.count else { return nil }
            return (start + ring.count - 1 - age) % ring.count
        }
    }

    private let state = Locked(Entries())

    public init() {}

    /// Adds `entry` as the newest.
    public func record(_ entry: Entry) {
        state.withLock { $0.append(entry, for: nil) }
    }

    /// Adds `entry` for `delivery`, or when the log has one for it, puts `entry` in its place.
    func record(_ entry: Entry, for delivery: PendingDelivery.ID) {
        state.withLock { entries in
            guard let place = entries.numbers[delivery].flatMap(entries.place(of:)) else {
                entries.append(entry, for: delivery)
                return
            }
            entries.ring[place] = entry
        }
    }

    /// Sets the outcome of `delivery`'s entry, if the log still has it.
    func settle(_ delivery: PendingDelivery.ID, as outcome: NotificationLog.Outcome) {
        state.withLock { entries in
            guard let place = entries.numbers[delivery].flatMap(entries.place(of:)) else { return }
            entries.ring[place].outcome = outcome
            entries.numbers[delivery] = nil
        }
    }

    /// Newest first.
    public var entries: [Entry] {
        state.withLock { entries in
            let ring = entries.ring
            return (0..<ring.count).map { ring[(entries.start + ring.count - 1 - $0) % ring.count] }
        }
    }
}
