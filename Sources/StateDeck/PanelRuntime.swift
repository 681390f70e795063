import FoundationEssentials

/// A panel's live state inside the deck: its history and everything in flight around it.
struct PanelRuntime {
    /// A load in flight.
    struct Load {
        let ticket: Int
        /// When it started, on the deck's clock.
        let startedAt: Duration
        /// A manual retry started or joined it: its outcome is reported even without a transition.
        var manual: Bool
        /// Nothing of it is shown: a check nobody asked for of a panel that shows a result, until
        /// a person asks for it too.
        var quiet: Bool
        let task: Task<Void, Never>
        /// Whether the loader waits for its turn behind a limit of its source.
        let turn: TurnWait
    }

    /// Held by reference, as it never changes: a deck's runtimes stay small however many fields a
    /// declaration has.
    private final class Declaration: Sendable {
        let panel: Panel

        init(_ panel: Panel) {
            self.panel = panel
        }
    }

    private let declaration: Declaration
    var panel: Panel { declaration.panel }
    let presenter: ErrorPresenter
    var history: ViewStateHistory
    var retry: RetryStatus?
    var stale = false
    /// Whether the source is up, as ``Health/after(_:cause:)`` decided at each change.
    var health = Health.unknown
    /// The health its state shows: while a debug command holds it, what the forced state shows.
    var shownHealth: Health { debugPinned ? forcedHealth ?? health : health }
    /// What the forced state shows while a debug command holds the panel; nil otherwise.
    var forcedHealth: Health?
    var debugPinned = false
    /// What the panel shows was restored from a history store at start-up: it is from before
    /// the server restarted, until the first new result or reset.
    var restored = false
    /// The newest state pushed or returned by an item action while a debug state pinned the
    /// panel, recorded when the pin is released.
    var heldWhilePinned: ViewState?
    /// Items with an action really running, in the order they started. `history.modifyingIds`
    /// shows them, but a debug state may show other ids there.
    var runningActions: [String] = []
    /// The id of the recovery option at work; its card shows the preloader meanwhile.
    var recovering: String?
    var load: Load?
    /// How long the newest load that ended ran; nil before the first and after a reset.
    var latestLoadDuration: Duration?
    /// The measurements of the newest load that ended with info (``Info/readings``); nil after
    /// one that ended with an error, before the first and after a reset.
    var latestReadings: [Info.Field]?
    /// A heartbeat panel's pings.
    var pings = HeartbeatPings()
    /// Its changes of health, for flapping.
    var flaps = FlapWatch()
    /// When the newest load asked for by hand started: the next one keeps a floor after it.
    var lastManualLoadStart: Duration?
    /// A load asked for by hand waits for the next timer, which was moved up for it.
    var manualLoadPending = false
    /// No scheduled load before this time: the service asked to be left alone (Retry-After).
    var notBefore: Duration?
    /// The share of its interval the next periodic load waits: where the deck's start placed its
    /// first refresh among the panels sharing its interval, then 1.
    var firstRefreshSpread = 1.0
    /// The state last sent to observers.
    var published: PanelState?
    /// The name of the deck's own place among the panel's locations.
    let location: String
    /// What the deck saw of the panel from its own place.
    var ownRecord = LocationRecord()
    /// How the panel fares from other places (remote probes), pushed from outside; none makes
    /// the state carry no locations.
    var remoteLocations: [PanelLocation] = []
    /// The maintenance window the panel is under, if any.
    var maintenance: MaintenanceMark?

    init(_ panel: Panel, at date: Date, location: String = Deck.Configuration.ownLocation) {
        declaration = Declaration(panel)
        presenter = ErrorPresenter(panelOptions: panel.recoveryOptions)
        history = ViewStateHistory(at: date)
        self.location = location
    }

    /// Records `state`; info gets the panel's item actions, and any result ends staleness and
    /// restoration.
    mutating func record(_ state: ViewState, at date: Date) {
        ownRecord.record(state, at: date)
        switch state {
        case .loaded(let info):
            history.setState(.loaded(panel.offeringItemActions(in: info)), at: date)
            stale = false
            restored = false
        case .error:
            history.setState(state, at: date)
            stale = false
            restored = false
        case .initial, .loading:
            history.setState(state, at: date)
        }
    }

    /// Shows `info` again, the last good one, marked stale: the error card after it was dismissed.
    mutating func showStale(_ info: Info, at date: Date) {
        history.setState(.loaded(info), at: date)
        stale = true
    }

    mutating func reset() {
        history.reset()
        latestLoadDuration = nil
        latestReadings = nil
        stale = false
        restored = false
    }

    /// `state` without the readings of its info, which become the panel's newest (an error
    /// clears them): measurements, kept apart so that they never make a change.
    mutating func takeReadings(of state: ViewState) -> ViewState {
        switch state {
        case .loaded(var info):
            latestReadings = info.readings
            info.readings = nil
            return .loaded(info)
        case .error:
            latestReadings = nil
            return state
        case .initial, .loading:
            return state
        }
    }

    /// Whether the result is what the panel shows already: the same info (not stale), or the same
    /// error.
    func shows(_ result: ViewState) -> Bool {
        switch result {
        case .loaded(let info): !stale && history.latestValidInfo == panel.offeringItemActions(in: info)
        case .error(let error): history.latestValidError == error
        case .initial, .loading: false
        }
    }

    /// Forgets the load in flight (finished or abandoned) and what it showed.
    mutating func endLoad() {
        load = nil
        retry = nil
        if recovering == RecoveryOption.retryId { recovering = nil }
    }

    mutating func startModifying(_ itemId: String) {
        runningActions.append(itemId)
        history.modifyingIds = (history.modifyingIds ?? []) + [itemId]
    }

    mutating func endModifying(_ itemId: String) {
        runningActions.removeAll { $0 == itemId }
        history.modifyingIds?.removeAll { $0 == itemId }
        if history.modifyingIds?.isEmpty == true { history.modifyingIds = nil }
    }

    /// When the next scheduled load is due, if any, given that the previous one ended at `now`.
    func nextScheduledLoad(after now: Duration) -> Duration? {
        let periodic: Duration? = if case .every(let interval) = panel.refresh {
            now + interval * firstRefreshSpread
        } else {
            nil
        }
        return [periodic, notBefore].compactMap(\.self).max()
    }
}
