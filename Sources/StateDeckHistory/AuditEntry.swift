import FoundationEssentials
import StateDeck

/// One action a person took on the deck, signed: who (the caller's name and role), what
/// (``AuditAction``, the panel it acted on, what it named), and when. Kept with the history, so
/// that it outlives the process; only actions the deck accepted are kept.
public struct AuditEntry: Sendable, Equatable {
    /// Unique across the processes that share a store: a save repeated after a commit cut short
    /// keeps it once, and a read that finds it both in memory and saved lists it once.
    public var id: String
    public var at: Date
    /// The caller's name.
    public var actor: String
    /// The caller's role as the gate gave it (`viewer`, `operator`, `designer`).
    public var role: String
    public var action: AuditAction
    /// The panel acted on; nil for an action on the deck (maintenance, a notify test, an incident).
    public var panel: String?
    /// What the action named: an option, an item action, a state, a reason, a target, a title.
    public var subject: String
    /// The rest of what it did, as ``AuditAction`` says for each kind; empty when nothing.
    public var detail: String

    public init(id: String = UUID().uuidString.lowercased(), at: Date, actor: String, role: String, action: AuditAction,
                panel: String? = nil, subject: String = "", detail: String = "") {
        self.id = id
        // Kept to the millisecond, as the stores keep it.
        self.at = Date(millisecondsSince1970: at.millisecondsSince1970)
        self.actor = actor
        self.role = role
        self.action = action
        self.panel = panel
        self.subject = subject
        self.detail = detail
    }

    /// The entry as a person reads it: "Retried by alice", "Debug state error forced by design-review".
    public var text: String {
        "\(action.phrase(subject: subject, detail: detail)) by \(actor)"
    }
}

extension AuditEntry: Encodable {
    /// PROTOCOL.md's audit entry: `panel` is null for an action on the deck.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(DeckJSON.timestamp(at), forKey: .at)
        try container.encode(actor, forKey: .actor)
        try container.encode(role, forKey: .role)
        try container.encode(action, forKey: .action)
        try container.encode(panel, forKey: .panel)
        try container.encode(subject, forKey: .subject)
        try container.encode(detail, forKey: .detail)
        try container.encode(text, forKey: .text)
    }

    private enum CodingKeys: String, CodingKey {
        case id, at, actor, role, action, panel, subject, detail, text
    }
}
