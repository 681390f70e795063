import FoundationEssentials
import Locking
import StateDeck

/// One action a person took on the deck, signed: who (the caller's name and role), what
/// (``AuditAction``, the panel it acted on, what it named), and when. Kept with the history, so
/// that it outlives the process; only actions the deck accepted are kept.
public struct AuditEntry: Sendable, Equatable {
    /// Unique across the processes that share a store: a save repeated after a commit cut short
    /// keeps it once, and a read that finds it both in memory and saved lists it once. Entries of
    /// one millisecond are listed by it, so a process's later entry has the greater id
    /// (``nextID(at:)``).
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

    public init(id: String? = nil, at: Date, actor: String, role: String, action: AuditAction,
                panel: String? = nil, subject: String = "", detail: String = "") {
        self.id = id ?? Self.nextID(at: at)
        // Kept to the millisecond, as the stores keep it.
        self.at = Date(millisecondsSince1970: at.millisecondsSince1970)
        // What people wrote, with its direction controls written out: an entry is made and read
        // back (one an earlier version kept included) only through here, so none is ever served
        // able to reorder the audit's lines.
        self.actor = actor.directionControlsShown
        self.role = role
        self.action = action
        self.panel = panel
        self.subject = subject.directionControlsShown
        self.detail = detail.directionControlsShown
    }

    /// Entries made by this process, counted: what orders two of one millisecond.
    private static let made = Locked<UInt64>(0)

    /// A new entry's id: its time, this process's count of entries and a random part, in hex of
    /// fixed widths, so that ids sort as the entries were made within a process and never meet
    /// another process's.
    static func nextID(at: Date) -> String {
        let count = made.withLock { count in
            count += 1
            return count
        }
        func hex(_ value: UInt64, _ width: Int) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return hex(UInt64(max(0, at.millisecondsSince1970)), 12) + "-" + hex(count, 12) + "-" + hex(.random(in: 0...UInt64.max), 16)
    }

    /// The entry as one line for logs and scripts: "Retried by alice", "Debug state error forced
    /// by design-review". The page draws `actor`, ``what`` and `subject` apart instead, so that
    /// what someone wrote never reads as who did it.
    public var text: String {
        "\(action.phrase(subject: subject, detail: detail)) by \(actor)"
    }

    /// What was done, without who did it nor what they wrote: "Started maintenance", "Updated
    /// incident (monitoring)"; the page quotes `subject` after it.
    public var what: String {
        action.what(detail: detail)
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
        try container.encode(what, forKey: .what)
        try container.encode(text, forKey: .text)
    }

    private enum CodingKeys: String, CodingKey {
        case id, at, actor, role, action, panel, subject, detail, what, text
    }
}
