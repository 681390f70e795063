import FoundationEssentials

/// A state the deck recorded on a panel, or a load that ended showing what was shown already:
/// what a history store keeps. Observers hear it as ``DeckEvent/change(_:)``.
public struct PanelChange: Sendable, Equatable {
    /// Why the state was recorded: only results (of loads, pushes and pings) say whether the
    /// panel's source is up; forced states are kept apart from everything real.
    public enum Cause: Sendable, Equatable {
        /// The result of a load that ran this long.
        case load(Duration)
        /// A state from the library user's code, or an item action's info.
        case push
        /// A heartbeat's job reported a run that ended, this long when the job said when it began.
        case ping(Duration?)
        /// No result came by the time one was due (a heartbeat's job did not ping): the panel is
        /// down, and no load is counted.
        case deadline
        /// What the page shows changed without a result: loading began, an error card was
        /// dismissed, the panel was reset.
        case view
        /// Forced by a debug command.
        case debug
        /// A maintenance window opened or ended, or the panel began or stopped flapping: what the
        /// panel is under changed, not its state or its health.
        case mark

        /// Whether the change is a result (of a load, a push or a ping), which says whether the
        /// panel's source works.
        public var isResult: Bool {
            switch self {
            case .load, .push, .ping: true
            case .view, .debug, .deadline, .mark: false
            }
        }
    }

    public var panel: String
    public var at: Date
    public var state: ViewState
    public var cause: Cause
    /// The panel's health after the change, as the deck decided it (``Health/after(_:cause:)``):
    /// what the history and notifications count, rather than deciding again from `state`.
    public var health: Health
    /// False for a quiet load whose result is the one shown: no state was recorded, but the
    /// load ran and its duration counts.
    public var recorded: Bool
    /// The window the panel is under after the change, if any: set on every change of the panel.
    public var maintenance: MaintenanceMark?

    /// The panel's flapping count after the change, which the history keeps for the next run.
    public var flaps: FlapRecord

    /// Whether the panel flaps after the change (``FlappingRule``): its count says since when.
    public var flapping: Bool { flaps.since != nil }

    public init(panel: String, at: Date, state: ViewState, cause: Cause, health: Health, recorded: Bool = true,
                maintenance: MaintenanceMark? = nil, flaps: FlapRecord = FlapRecord()) {
        self.panel = panel
        self.at = at
        self.state = state
        self.cause = cause
        self.health = health
        self.recorded = recorded
        self.maintenance = maintenance
        self.flaps = flaps
    }

    /// How long the load or the run ran, for a result that says.
    public var duration: Duration? {
        switch cause {
        case .load(let duration): duration
        case .ping(let duration): duration
        default: nil
        }
    }
}
