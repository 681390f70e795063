/// Everything the page draws for one panel: the `PanelState` document of PROTOCOL.md.
///
/// Its derived values follow ``ViewStateHistory``; errors are already presented as ``ErrorCard``s.
///
/// Its fields live in one shared, immutable box: the deck's copy of what it last published, the
/// server's mirror and every event in between hold the same one, so a panel's state costs its
/// memory once, however many hold it (a deck of 100,000 panels kept two inline copies of 888
/// bytes each). A field set on a copy gives that copy a box of its own.
@dynamicMemberLookup
public struct PanelState: Sendable, Equatable {
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let fields: Fields

        @usableFromInline init(_ fields: Fields) {
            self.fields = fields
        }
    }

    @usableFromInline var box: Box

    public init(_ fields: Fields) {
        box = Box(fields)
    }

    /// Every field of the document.
    @inlinable public var fields: Fields { box.fields }

    @inlinable public subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value {
        box.fields[keyPath: field]
    }

    @inlinable public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { box.fields[keyPath: field] }
        set {
            var fields = box.fields
            fields[keyPath: field] = newValue
            box = Box(fields)
        }
    }

    public static func == (lhs: PanelState, rhs: PanelState) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// `{"info": …}` or `{"error": …}`.
    public enum Outcome: Sendable, Equatable {
        case info(Info)
        case error(ErrorCard)
    }
}

extension PanelState {
    /// The fields of a panel's state, as PROTOCOL.md names them.
    public struct Fields: Sendable, Equatable {
        public var id: String
        public var title: String
        /// The id of the group it is drawn under, if any.
        public var group: String?
        /// The newest state's name.
        public var phase: ViewState.Phase
        /// Whether the source is up, as the deck decided it: down from an error until a result says
        /// otherwise, a dismissed card and the stale info shown after it included. Every surface
        /// reads this rather than deciding from the other fields. While `debugPinned`, what the
        /// forced state shows (``Health/forced(_:)``).
        public var health: Health
        public var isInitialLoading: Bool
        public var isLoading: Bool
        /// The info shown, if the newest result is info.
        public var latestValidInfo: Info?
        /// The newest info, even if an error came after it.
        public var latestInfo: Info?
        /// The card shown, if the newest result is an error.
        public var latestValidError: ErrorCard?
        /// The newest error's card, even if info came after it.
        public var latestError: ErrorCard?
        /// Items with an action in flight.
        public var modifyingIds: [String]?
        /// The newest states, oldest first, at most ``ViewStateHistory/displayLimit``.
        public var history: [ViewStateHistory.Entry]
        /// How loading is drawn.
        public var presentation: Presentation
        /// Info drawn as a redacted skeleton before the first load.
        public var placeholder: Info?
        /// Automatic retries in progress.
        public var retry: RetryStatus?
        /// A debug command holds the panel: its scheduled loads and retries are paused.
        public var debugPinned: Bool
        /// The shown info is the last good one, kept after an error card was dismissed.
        public var stale: Bool
        /// What the panel shows is from before the server restarted (kept by the history store),
        /// until its first new result.
        public var restored: Bool
        /// The panel's load waits for its turn behind a limit of its source (the commands running at
        /// once, the http requests to one host); its timeout stands still meanwhile.
        public var queued: Bool
        /// How the panel fares from each place it is checked from, the deck's own first; nil while
        /// it is checked from the deck's place only.
        public var locations: [PanelLocation]? = nil
        /// One line over `locations`, such as "Down from eu-west only"; nil without locations.
        public var locationsSummary: String? = nil
        /// How long the newest load ran, in whole milliseconds, from its start to its answer (not the
        /// minimum loading time that held the answer back), whether its result was recorded or was
        /// the one shown already; nil before the first load ends and after a reset.
        public var loadMs: Int? = nil
        /// The newest load's measurements, such as a ping's round trips (``Info/readings``): like
        /// `loadMs`, a measurement and not a change; nil after a load that ended with an error.
        public var readings: [Info.Field]? = nil
        /// What a heartbeat panel's job is expected to do and where it stands; nil for other panels.
        public var heartbeat: HeartbeatStatus? = nil
        /// The maintenance window the panel is under: its id, reason and end; nil otherwise.
        public var maintenance: MaintenanceMark? = nil
        /// The ids of the panels it depends on, as declared (``Panel/dependsOn``).
        public var dependsOn: [String] = []
        /// The ids of its direct dependencies that are down, while it is down itself: what it
        /// probably fails because of. Empty otherwise.
        public var probableCauses: [String] = []
        /// Since when, and how often, its health changes between up and down (``FlappingRule``); nil
        /// while it does not flap.
        public var flapping: FlappingStatus? = nil

        /// What the panel shows: its valid info, else its valid error, else nothing.
        public var latestNonLoading: Outcome? {
            if let latestValidInfo { return .info(latestValidInfo) }
            if let latestValidError { return .error(latestValidError) }
            return nil
        }
    }
}
