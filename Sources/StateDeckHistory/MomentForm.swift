import FoundationEssentials
import StateDeck

/// One form a part of the state document took, from `at` until the next form of the same part:
/// a panel's compact form (as the live `GET /api/state` writes it, without `loadMs` and `readings`), the deck's
/// notice, one incident, or one maintenance window active or next. `GET /api/state?at=` is rebuilt
/// from the newest form of each part at or before its instant, the lists from their items'.
///
/// An incident or a window is a part of its own, so an operator's change keeps that one item, not
/// the whole list again: what a change costs does not grow with how many are open. Histories
/// written before kept the lists whole (``Part/maintenance``, ``Part/incidents``); a deck followed
/// anew marks those gone, so a moment holds either a whole list or its items, never both.
///
/// A form is kept only when it differs from the part's newest, so a panel that shows the same
/// thing for a day keeps one form that day. Every form is whole (no patch to replay), so a
/// moment reads one row a part: each form is its part's checkpoint.
public struct MomentForm: Sendable, Equatable {
    /// What part of the state document a form is.
    public enum Part: Hashable, Sendable {
        case panel(String)
        case notice
        /// The whole maintenance status, as histories written before kept it.
        case maintenance
        /// The whole list of incidents, as histories written before kept it.
        case incidents
        /// One incident the state document lists, by id.
        case incident(String)
        /// One window holding (`GET /api/maintenance`'s `active`), by id and start (`id@from`).
        case activeWindow(String)
        /// The next stretch of a declared window (`next`), by id and start.
        case nextWindow(String)

        /// The `kind` and `subject` columns a store keeps it as.
        public var columns: (kind: Int64, subject: String) {
            switch self {
            case .panel(let id): (0, id)
            case .notice: (1, "")
            case .maintenance: (2, "")
            case .incidents: (3, "")
            case .incident(let id): (4, id)
            case .activeWindow(let key): (5, key)
            case .nextWindow(let key): (6, key)
            }
        }

        /// The part a store's `kind` and `subject` columns stand for, or nil for a kind this version
        /// did not write.
        public init?(kind: Int64, subject: String) {
            switch kind {
            case 0: self = .panel(subject)
            case 1: self = .notice
            case 2: self = .maintenance
            case 3: self = .incidents
            case 4: self = .incident(subject)
            case 5: self = .activeWindow(subject)
            case 6: self = .nextWindow(subject)
            default: return nil
            }
        }
    }

    public var part: Part
    /// Milliseconds since 1970.
    public var at: Int64
    /// The part as JSON, as the state document writes it.
    public var json: String
    /// A panel's title, phase, health and summary (nil for the deck's parts): what `GET /api/changes`
    /// lists.
    public var headline: MomentHeadline?
    /// The panel's headline in its form before this one (nil for its first).
    public var previous: MomentHeadline?
    /// The order forms were kept in: a page's cursor (`<at>.<position>`) holds across a save.
    public var position: Int64 = 0

    /// The JSON of a part gone from the document (a panel removed from the deck).
    public static let gone = ""

    public init(part: Part, at: Int64, json: String, headline: MomentHeadline? = nil, previous: MomentHeadline? = nil) {
        self.part = part
        self.at = at
        self.json = json
        self.headline = headline
        self.previous = previous
    }

    /// Whether a moment shows this form rather than `other` of its part, both at or before it:
    /// the later by time, of two at one time the one kept last (after the wall clock was set
    /// back, a form kept later may hold from an earlier time).
    public func isNewer(than other: MomentForm) -> Bool {
        (at, position) > (other.at, other.position)
    }

    /// Whether the panel's phase, health or summary differ from its form before: a change
    /// `GET /api/changes` lists.
    public var isChange: Bool {
        guard let headline else { return false }
        return previous.map { !$0.says(as: headline) } ?? true
    }

    /// Whether the panel's health differs from its form before, or it has no form before: its
    /// health began with this form.
    public var changesHealth: Bool {
        guard let headline else { return false }
        return previous?.health != headline.health
    }
}

/// What `GET /api/changes` says of a panel in one form: its title, phase, health and summary (the
/// info's summary, or the error card's message).
public struct MomentHeadline: Sendable, Equatable {
    public var title: String
    public var phase: String
    public var health: String
    public var summary: String?

    public init(title: String, phase: String, health: String, summary: String?) {
        self.title = title
        self.phase = phase
        self.health = health
        self.summary = summary
    }

    /// Whether both say the same phase, health and summary (the title is not a change).
    func says(as other: MomentHeadline) -> Bool {
        (phase, health, summary) == (other.phase, other.health, other.summary)
    }
}

/// The state document's parts at one instant, from the history: each part's newest form at or
/// before it, and whether a process ran the deck then.
public struct Moment: Sendable, Equatable {
    public var at: Date
    /// False between a stop (or a crash) and the next start: nothing watched the deck, and the
    /// forms are those it showed when it was last watched.
    public var watched: Bool
    public var forms: [MomentForm.Part: MomentForm]

    public init(at: Date, watched: Bool, forms: [MomentForm.Part: MomentForm]) {
        self.at = at
        self.watched = watched
        self.forms = forms
    }
}

/// Why a moment cannot be rebuilt.
public enum MomentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Before the oldest instant the history keeps (nil: it keeps none yet).
    case beforeOldest(Date?)
    /// After now.
    case future(now: Date)
    /// The store keeps no moments.
    case notKept
    /// The store could not be read.
    case unreadable(String)

    public var description: String {
        switch self {
        case .beforeOldest(let oldest?):
            "at must not be before \(DeckJSON.timestamp(oldest)), the oldest instant the history keeps"
        case .beforeOldest(nil): "at must not be before the history's oldest instant: it keeps none yet"
        case .future(let now): "at must not be after now (\(DeckJSON.timestamp(now)))"
        case .notKept: "history is off: this server keeps no history to rebuild a moment from"
        case .unreadable(let reason): "the history store cannot be read: \(reason)"
        }
    }
}

/// One change `GET /api/changes` lists: a panel's phase, health or summary changed at `at`.
public struct DeckChange: Sendable, Equatable, Encodable {
    public var at: Date
    public var panel: String
    public var title: String
    public var from: Side?
    public var to: Side
    /// The form's position, for the page's cursor.
    public var position: Int64

    /// A side of a change: what the panel was before it, or after.
    public struct Side: Sendable, Equatable, Encodable {
        public var phase: String
        public var health: String
        public var summary: String?

        public init(_ headline: MomentHeadline) {
            phase = headline.phase
            health = headline.health
            summary = headline.summary
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(phase, forKey: .phase)
            try container.encode(health, forKey: .health)
            try container.encode(summary, forKey: .summary)
        }

        private enum CodingKeys: String, CodingKey { case phase, health, summary }
    }

    /// The change a panel's form is, or nil for a form that changed neither phase, health nor
    /// summary (or a deck part's).
    public init?(_ form: MomentForm) {
        guard form.isChange, let headline = form.headline, case .panel(let panel) = form.part else { return nil }
        at = Date(millisecondsSince1970: form.at)
        self.panel = panel
        title = headline.title
        from = form.previous.map(Side.init)
        to = Side(headline)
        position = form.position
    }

    private enum CodingKeys: String, CodingKey { case at, panel, title, from, to }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(at, forKey: .at)
        try container.encode(panel, forKey: .panel)
        try container.encode(title, forKey: .title)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
    }
}

/// A page of changes, oldest first; `next` reads the page after it (null on the last); `oldest`
/// is the oldest instant a moment can be rebuilt for (null while none is kept), so a timeline
/// starts there rather than at instants `GET /api/state?at=` refuses.
public struct DeckChangePage: Sendable, Equatable, Encodable {
    public var changes: [DeckChange]
    public var next: String?
    public var oldest: Date?

    public init(changes: [DeckChange], next: String?, oldest: Date?) {
        self.changes = changes
        self.next = next
        self.oldest = oldest
    }

    private enum CodingKeys: String, CodingKey { case changes, next, oldest }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(changes, forKey: .changes)
        try container.encode(next, forKey: .next)
        try container.encode(oldest, forKey: .oldest)
    }
}
