import FoundationEssentials

/// What a target is told: a panel went down, is still down, or is up again. Its JSON is the
/// webhook's body, a command's standard input and the page's `notification` event (PROTOCOL.md,
/// "Notifications").
public struct DeckNotification: Sendable, Hashable, Codable {
    public enum Event: String, Sendable, Hashable, Codable {
        case failure, reminder, recovery
    }

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
        }
    }
}
