/// The one owner of every panel's state: applies every action, runs every load and tells its
/// observers about each change, in order.
///
/// ```swift
/// let deck = Deck("My stack") {
///     Panel("api", title: "API") { try await fetchHealth() }
///         .refresh(every: .seconds(5))
/// }
/// await deck.observe { event in mirror.apply(event) }
/// await deck.start()
/// ```
public actor Deck {
    /// The deck's heading.
    public nonisolated let title: String
    /// The panels' ids, in declaration order.
    public nonisolated let panelIds: [String]
    /// What each panel loads from (``Panel/sourceKind``), by id, for the panels that say.
    public nonisolated let sourceKinds: [String: String]
    /// The heartbeat panels' ids, by the path their job pings (``Heartbeat/pingPath``).
    public nonisolated let pingTargets: [String: String]
    /// The panels each panel depends on (``Panel/dependsOn``), by id, for the panels that declare any.
    public nonisolated let dependencies: [String: [String]]
    /// What each panel declares about notifications (``Panel/notify``), by id.
    public nonisolated let notifyDeclarations: [String: NotifyDeclaration<NotifyEntry>]
    /// The panels' groups, in the order of their first panels; the first panel's title of a
    /// group wins.
    public nonisolated let groups: [PanelGroup]
    /// Time, randomness, toast settings and limits.
    public nonisolated let configuration: Configuration
    /// The public status page, its groups' panels filled; nil when the deck shows none.
    public nonisolated let statusPage: StatusPage?
    let clock: DeckClock
    /// Each panel's index by id: an action or a ping finds its panel at once, however many the
    /// deck has.
    let indices: [String: Int]
    /// Each panel's dependencies, and the panels that depend on it, by index: a change of health
    /// republishes only its dependents, however many panels the deck has.
    let dependencyIndices: [[Int]]
    let dependentIndices: [[Int]]
    let runner: Runner
    var panels: [PanelRuntime]
    var feedback: Feedback
    var toastExpiry: Task<Void, Never>?
    /// Recovery handlers and item actions at work, by ticket.
    var activities: [Int: Task<Void, Never>] = [:]
    /// Each panel's next scheduled load.
    var loadSchedule = LoadSchedule()
    /// Panels whose first load waits for room (``startWave``), in declaration order, and the
    /// alarm that looks for room next.
    var waitingToStart: ArraySlice<Int> = []
    var startWaveAlarm: DeckClock.Alarm?
    /// Panels with a load in flight.
    var loadsInFlight = 0
    var issuedTickets = 0
    /// Scheduled loads run only between `start()` and `stop()`.
    var isStarted = false
    /// After `stop()`, a recovery or item action that ends late loads nothing.
    var isStopped = false
    /// The maintenance windows, and the alarm for their next change.
    var maintenance: MaintenanceBook
    /// The incidents open and past, and the alarm for the next to leave the state.
    var incidents = IncidentBook()
    private var observers: [@Sendable (DeckEvent) -> Void] = []

    /// A deck of `panels`, whose ids must be unique and whose dependencies must be panels of the
    /// deck that make no cycle; panels named in `memories` continue from where they were in the
    /// deck this one replaces. `windows` are its maintenance windows, with unique ids, over its panels;
    /// `status` its public status page, over its panels and groups.
    public init(
        _ title: String,
        configuration: Configuration = Configuration(),
        panels: [Panel],
        memories: [String: PanelMemory] = [:],
        maintenance windows: [MaintenanceWindow] = [],
        status: StatusPage? = nil
    ) {
        let ids = panels.map(\.id)
        precondition(Set(ids).count == ids.count, "Panel ids must be unique within a deck: \(ids)")
        self.title = title
        panelIds = ids
        sourceKinds = Dictionary(uniqueKeysWithValues: panels.compactMap { panel in panel.sourceKind.map { (panel.id, $0) } })
        dependencies = Dictionary(uniqueKeysWithValues: panels.compactMap { $0.dependsOn.isEmpty ? nil : ($0.id, $0.dependsOn) })
        indices = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        (dependencyIndices, dependentIndices) = Self.dependencyIndices(of: panels, ids: ids, positions: indices)
        notifyDeclarations = Dictionary(uniqueKeysWithValues: panels.map { ($0.id, $0.notify) })
        pingTargets = Dictionary(panels.compactMap { panel in panel.heartbeat?.pingPath.map { ($0, panel.id) } }) { first, _ in first }
        var seen = Set<String>()
        groups = panels.compactMap(\.group).filter { seen.insert($0.id).inserted }
        statusPage = status?.resolved(in: panels.map { ($0.id, $0.group?.id) })
        self.configuration = configuration
        clock = DeckClock(configuration.clock)
        runner = Runner(clock: clock, random: configuration.random, maximumInfoSize: configuration.maximumInfoSize,
                        maximumInfoItems: configuration.maximumInfoItems)
        let date = configuration.now()
        self.panels = panels.map { panel in
            var runtime = PanelRuntime(panel, at: date, location: configuration.location)
            if let memory = memories[panel.id] { runtime.restore(memory) }
            return runtime
        }
        feedback = Feedback(duration: configuration.toastDuration, position: configuration.toastPosition)
        maintenance = MaintenanceBook(declared: windows)
    }

    /// A deck dropped without `stop()` cancels what still waits (loads, timers, heartbeats' alarms,
    /// the toast's expiry, handlers): they hold the deck weakly, and would otherwise wait out their sleep.
    deinit {
        toastExpiry?.cancel()
        for panel in panels {
            panel.load?.task.cancel()
            panel.pings.alarm?.cancel()
            panel.flaps.alarm?.cancel()
        }
        loadSchedule.removeAll()
        startWaveAlarm?.cancel()
        maintenance.alarm?.cancel()
        incidents.alarm?.cancel()
        activities.values.forEach { $0.cancel() }
    }

    /// A deck declared with the DSL, with maintenance windows `windows` over its panels and the
    /// public status page `status`.
    public init(_ title: String, configuration: Configuration = Configuration(), maintenance windows: [MaintenanceWindow] = [],
                status: StatusPage? = nil, @DeckBuilder panels: () -> [Panel]) {
        self.init(title, configuration: configuration, panels: panels(), maintenance: windows, status: status)
    }

    /// Registers `observer`, called on the deck, synchronously and in order, for every event.
    public func observe(_ observer: @escaping @Sendable (DeckEvent) -> Void) {
        observers.append(observer)
    }

    /// Every panel and the current toast, at one moment.
    public func snapshot() -> DeckSnapshot {
        DeckSnapshot(title: title, groups: groups, panels: panels.indices.map(state), toast: feedback.current,
                     maintenance: maintenance.told ?? MaintenanceStatus(),
                     incidents: incidents.told ?? incidents.recent(at: configuration.now()))
    }

    /// The current state of panel `id`.
    public func panelState(_ id: String) throws(DeckError) -> PanelState {
        state(try index(of: id))
    }

    /// Panel `index`'s state, with what the deck decides from beyond the panel: its probable
    /// causes and its flapping.
    func state(_ index: Int) -> PanelState {
        panels[index].state(probableCauses: probableCauses(of: index),
                            flapping: configuration.flapping.flatMap(panels[index].flaps.status))
    }

    func index(of id: String) throws(DeckError) -> Int {
        guard let index = indices[id] else { throw .unknownPanel(id) }
        return index
    }

    /// Changes panel `index`, then publishes its state.
    func update(_ index: Int, _ change: (inout PanelRuntime) -> Void) {
        change(&panels[index])
        publish(index)
    }

    /// Tells observers about panel `index` if its state changed since they last heard, and
    /// about its dependents if its health did.
    func publish(_ index: Int) {
        let state = state(index)
        let previous = panels[index].published
        guard state != previous else { return }
        panels[index].published = state
        emit(.panel(state))
        if state.health != previous?.health { publishDependents(of: index) }
    }

    func emit(_ event: DeckEvent) {
        for observer in observers { observer(event) }
    }
}

extension Deck {
    /// How panel `id` was declared, or nil for an unknown id: a deck of that one panel shows it
    /// elsewhere as this deck would.
    public func declaration(of id: String) -> Panel? {
        indices[id].map { panels[$0].panel }
    }
}
