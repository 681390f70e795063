/// The declaration of one panel: what it loads and how it behaves.
///
/// A value type built with the ``DeckBuilder`` DSL or programmatically; every modifier returns a
/// changed copy:
///
/// ```swift
/// Panel("api", title: "API") { try await fetchHealth() }
///     .refresh(every: .seconds(5))
///     .recovery(.tryAgain, .custom("restart", "Restart") { try await restartAPI() })
///     .notify(chat, .failures(3).reminding(every: .seconds(3_600), times: 3))
/// ```
public struct Panel: Sendable {
    /// Loads the panel's info; throws a ``PanelError`` (or any error) when it cannot.
    public typealias Loader = @Sendable () async throws -> Info

    /// Unique within a deck.
    public let id: String
    /// The panel's heading.
    public var title: String
    /// The heading it is drawn under, if any.
    public var group: PanelGroup?
    /// What it loads from (`http`, `tcp`, `command`, `file`), a label of its metrics; nil for a
    /// loader written in code.
    public var sourceKind: String?
    /// Runs in a task of its own, cancelled on timeout, debug pin and `stop()`.
    public var load: Loader
    public var refresh: Refresh = .manual
    /// The longest one attempt may take.
    public var timeout: Duration = .seconds(10)
    /// How failures are retried before they are shown.
    public var retryPolicy = RetryPolicy()
    /// The shortest time `loading` is shown, so that an instant answer does not flicker.
    public var minimumLoadingTime: Duration = .milliseconds(500)
    /// How loading is drawn.
    public var presentation = Presentation()
    /// Info drawn as a redacted skeleton before the first load, and shown by the debug `loaded`
    /// command.
    public var placeholder: Info?
    /// The panel's own options, offered on the error cards they fit after the error's own and
    /// before the catalogue's for the kind (``ErrorKind/recoveryOptions``), which one of the same
    /// id replaces.
    public var recoveryOptions: [RecoveryOption] = []
    /// Actions offered on the items of the panel's list.
    public var itemActions: [ItemAction] = []
    /// The message of a success toast, instead of the default; nil keeps the default.
    public var successMessage: (@Sendable (Info) -> String?)?
    /// The message of a failure toast, instead of the default; nil keeps the default.
    public var failureMessage: (@Sendable (PanelError) -> String?)?
    /// Called on the deck whenever the panel records info.
    public var loadedHandler: (@Sendable (Info) -> Void)?
    /// Called on the deck whenever the panel records an error.
    public var errorHandler: (@Sendable (PanelError) -> Void)?
    /// Where the panel's outages are told (``notify(_:_:)``); also to the page's desktop
    /// notifications unless it is `none`.
    public var notify: NotifyDeclaration<NotifyEntry> = .entries([])
    /// The ids of the panels it depends on (a database under an API): while one of them is down
    /// too, it is its probable cause (``PanelState/probableCauses``).
    public var dependsOn: [String] = []
    /// What a job that pings the panel is expected to do; such a panel never runs `load`, its
    /// results are the job's pings (``Deck/ping(panel:_:body:)``).
    public var heartbeat: Heartbeat?

    /// A panel that loads with `load`; the defaults are those of PROTOCOL.md: manual refresh, 10 s
    /// timeout, 3 attempts, 500 ms minimum loading time, the catalogue's buttons on its cards.
    public init(_ id: String, title: String, load: @escaping Loader) {
        self.id = id
        self.title = title
        self.load = load
    }

    /// When the panel loads on its own.
    public enum Refresh: Sendable, Hashable {
        /// Once at start, then on request only.
        case manual
        /// Again each time this long after the previous load ended.
        case every(Duration)
    }
}
