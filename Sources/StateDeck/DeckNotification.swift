import FoundationEssentials

/// What a target is told: a panel went down, is still down, is up again, or flaps; a person
/// opened, updated or resolved an incident (`incident`); or, asked for by a person, that the
/// target works (`test`). Its JSON is the webhook's body, a command's
/// standard input and the page's `notification` event (PROTOCOL.md, "Notifications").
public struct DeckNotification: Sendable, Hashable, Codable {
    public enum Event: String, Sendable, Hashable, Codable {
        case failure, reminder, recovery, flapping, test, incident
    }

    /// The panel a test notification names: StateDeck's own, where the server has one.
    public static let testPanel = "statedeck"

    /// Its own id, the same on every attempt, after a restart and from any server of a cluster,
    /// so that a receiver can drop a repeat (a webhook's `Idempotency-Key`, a command's
    /// `STATEDECK_NOTIFICATION_ID`): the id of the delivery the notifier kept it as, or a test
    /// send's own. Nil until then.
    public var id: String?
    public var event: Event
    public var panel: String
    public var title: String
    public var group: String?
    /// The error shown while down: its kind, title and message.
    public var error: ErrorSummary?
    /// When the outage began: its first failed load.
    public var downSince: Date
    /// How long it has been down (to its recovery, for a recovery), in whole seconds.
    public var downSeconds: Int
    public var at: Date
    /// One line for chat and mail: "API is down: Timed out", "API is up again after 4 min".
    public var message: String
    /// For a failure of a panel others depend on: those of them failing with it, at any depth.
    public var dependents: [String]?
    /// For an incident: the incident and its newest update.
    public var incident: IncidentStep?

    /// An incident as one of its updates left it: its id, status, the panels it affects, and the
    /// update's text and author.
    public struct IncidentStep: Sendable, Hashable, Codable {
        public var id: String
        public var status: Incident.Status
        public var panels: [String]
        public var update: String
        public var author: String
    }

    public struct ErrorSummary: Sendable, Hashable, Codable {
        public var kind: String
        public var title: String
        public var message: String

        public init(kind: String, title: String, message: String) {
            self.kind = kind
            self.title = title
            self.message = message
        }
    }

    public init(event: Event, panel: String, title: String, group: String?, error: ErrorSummary?, downSince: Date, at: Date) {
        self.event = event
        self.panel = panel
        self.title = title
        self.group = group
        self.error = error
        self.downSince = downSince
        self.at = at
        downSeconds = max(0, Int(at.timeIntervalSince(downSince)))
        let downFor = Duration.seconds(downSeconds).lengthText
        message = switch event {
        case .failure: "\(title) is down" + (error.map { ": \($0.title)" } ?? "")
        case .reminder: "\(title) is still down after \(downFor)" + (error.map { ": \($0.title)" } ?? "")
        case .recovery: "\(title) is up again after \(downFor)"
        case .flapping: "\(title) is flapping"
        case .test: "Test notification from StateDeck: \(title)"
        case .incident: title
        }
    }

    /// What a test send tells a target: the deck's title as the title, ``testPanel`` as the
    /// panel, no group, no error, down for nothing.
    public static func test(ofDeck title: String, at date: Date) -> DeckNotification {
        var test = DeckNotification(event: .test, panel: testPanel, title: title, group: nil, error: nil, downSince: date, at: date)
        test.id = UUID().uuidString.lowercased()
        return test
    }

    /// That panel `panel` began flapping at `date`, its health having changed `changes` times
    /// within `within`: "API is flapping: 6 changes in 10 min".
    public static func flapping(panel: String, title: String, group: String?, changes: Int, within: Duration,
                                at date: Date) -> DeckNotification {
        var told = DeckNotification(event: .flapping, panel: panel, title: title, group: group, error: nil,
                                    downSince: date, at: date)
        told.message += ": \(changes) changes in \(within.lengthText)"
        return told
    }

    /// This failure, naming `ids`, the panels failing with it that depend on it: "Postgres is
    /// down: Timed out; 12 panels that depend on it are failing too".
    public func naming(failingDependents ids: [String]) -> DeckNotification {
        guard !ids.isEmpty else { return self }
        var told = self
        told.dependents = ids
        told.message += ids.count == 1 ? "; 1 panel that depends on it is failing too"
            : "; \(ids.count) panels that depend on it are failing too"
        return told
    }
}
