import EventStream
import FoundationEssentials
import Locking
import Logging
import MicroHTTP
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// The dashboard: one deck served over HTTP, its changes streamed to every open page, its
/// panels' outages told to their notify targets and to the page.
///
/// Alone, the server runs its deck (``DeckRunner``). Given a ``DeckHost``, it serves
/// the copy the host feeds, and the host runs the deck here only while it says so.
public final class DeckServer: Sendable {
    public let configuration: ServerConfiguration
    /// What the routes serve: the deck's state as the runner follows it, or as the host's store
    /// hands it over.
    private let mirror: StateMirror
    private let runner: DeckRunner
    private let host: (any DeckHost)?
    private let http: HTTPServer
    /// What answers each request, gate first: the router-level tests ask it without a socket.
    let responder: SecureResponder
    /// The routes without the gate, for actions another server sharing the deck let in.
    private let router: Router
    private let hub: EventHub
    private let gate: RequestGate
    /// Where every change is kept; nil when nothing is.
    private let history: (any HistoryStore)?
    private let status: StatusRoutes
    /// The API's routes, method and pattern, as `docs/openapi.yaml` must list them.
    let routes: [(method: HTTPMethod, pattern: String)]
    /// The actions people took, signed (`GET /api/audit`).
    public let audit: AuditTrail

    /// Prepares the server; nothing is bound until `start()`.
    ///
    /// - Throws: ``DeckServerError/tokenRequired(host:)`` when `configuration` listens beyond
    ///   loopback without a token: whoever reaches the port could force states and run recovery
    ///   commands.
    /// - Parameter history: Where every change is kept, and the history and uptime routes read;
    ///   nil keeps nothing past the process (those routes answer 404).
    /// - Parameter notificationLedger: Where outages and deliveries under way are kept (the history
    ///   store, across restarts); nil keeps outages in memory, carried from deck to deck as
    ///   ``replaceDeck(with:)`` replaces it.
    /// - Parameter onNotificationDelivery: Called after each delivery to a `notify:` target, sent or
    ///   given up (the page's are not told).
    /// - Parameter host: Who runs the deck, when not this server alone: the server then
    ///   runs `deck` (and notifies, and records history) only while the host says so, and serves
    ///   what the host's store hands over.
    public init(deck: Deck, configuration: ServerConfiguration, history: (any HistoryStore)? = nil,
                notificationLedger: (any NotificationLedger)? = nil,
                onNotificationDelivery: (@Sendable (Notifier.Delivery) -> Void)? = nil,
                host: (any DeckHost)? = nil, logger: Logger = Logger(label: "statedeck")) async throws {
        guard configuration.isLoopback || configuration.accessList != nil else {
            throw DeckServerError.tokenRequired(host: configuration.host)
        }
        self.configuration = configuration
        self.host = host
        self.history = history
        var hubConfiguration = EventHub.Configuration()
        hubConfiguration.pingInterval = configuration.pingInterval
        // With a host the store numbers events, and the hub takes the ids it gives, the newest
        // events it loads at join included: they are older than the history's last saved id, so
        // numbering after that id would turn every page that resumes here away with a snapshot.
        if host == nil {
            hubConfiguration.earlierLastEventID = history?.lastEventID ?? 0
        } else {
            hubConfiguration.firstEventID = 1
        }
        let hub = EventHub(configuration: hubConfiguration)
        self.hub = hub
        let timeline = history.map { _ in
            PageSettings.HistorySettings(timelineSpanMs: Int(configuration.timeline.span / .milliseconds(1)),
                                         timelineSlots: configuration.timeline.slots)
        }
        // The mirror that follows the running deck keeps the forms moments are rebuilt from.
        let mirror = StateMirror(debug: configuration.debug, pingInterval: configuration.pingInterval,
                                 history: timeline, hub: hub, moments: host == nil ? history : nil)
        self.mirror = mirror
        // With a host, the running deck is followed by a copy whose events go to the host's store.
        let source = host.map {
            StateMirror(debug: configuration.debug, pingInterval: configuration.pingInterval, history: timeline,
                        hub: hub, relay: $0.relay, moments: history)
        } ?? mirror
        let metrics = DeckMetrics(hub: hub)
        runner = DeckRunner(deck: deck, source: source, held: host == nil ? nil : mirror, history: history,
                            metrics: metrics, notificationLedger: notificationLedger ?? OutageTable(),
                            onNotificationDelivery: onNotificationDelivery, logger: logger)
        if let history {
            history.trackEventIDs { hub.lastEventID }
            // Weakly: the source reads moments from the history, which would hold it for ever.
            history.observeTrouble { [weak source] error in source?.setNotice(error.map { ErrorPresenter().card(for: $0) }) }
        }
        if let trouble = history?.trouble { source.setNotice(ErrorPresenter().card(for: trouble)) }

        let files = try configuration.publicDirectory.map(StaticFiles.init(directory:)) ?? .embedded
        let gate = RequestGate(configuredHost: configuration.host, publicAddresses: configuration.publicAddresses,
                               access: configuration.accessList, trustedProxies: configuration.trustedProxies) { [runner] segments in
            RequestGate.statusPage(segments) || StatusRoutes.isPublicBadge(segments, of: runner.deck.statusPage)
        }
        self.gate = gate
        var router = Router { request, _ in .response(files.respond(to: request)) }
        audit = AuditTrail(history: history)
        APIRoutes(deck: { [runner] in runner.deck }, mirror: mirror, history: history, metrics: metrics,
                  notificationLog: runner.notificationLog,
                  timeline: configuration.timeline, debugEnabled: configuration.debug,
                  streamCapacity: configuration.streamCapacity, catchUp: host == nil ? nil : .seconds(2), gate: gate,
                  actions: MiddlewareChain(host.map { [RunningDeckForwarder(host: $0), SettledCheck(host: $0)] } ?? []),
                  reads: MiddlewareChain(host.map { [RunningDeckForwarder(host: $0)] } ?? []), audit: audit)
        .register(on: &router)
        CallerRoute(gate: gate, debugEnabled: configuration.debug).register(on: &router)
        status = StatusRoutes(deck: { [runner] in runner.deck }, mirror: mirror, history: history)
        status.register(on: &router)
        routes = router.routes
        self.router = router
        responder = SecureResponder(gate: gate, routes: router, files: files)
        http = HTTPServer(configuration: configuration.http, responder: responder, logger: logger)
        if host == nil { await runner.prepare() }
    }

    /// The bytes of the `GET /api/state` document: as it is now for nil, else as it was at
    /// `instant`, rebuilt from the history (what `GET /api/state?at=` answers).
    ///
    /// - Throws: ``MomentError`` when `instant` is before the oldest instant kept or after now,
    ///   no history is kept, or it cannot be read.
    public func stateDocument(at instant: Date?) throws(MomentError) -> [UInt8] {
        try mirror.stateDocument(at: instant, history: history)
    }

    /// Binds, starts the deck's loads (with a host: joins it, which runs the deck here when it
    /// says so) and returns the port; the server then accepts connections.
    @discardableResult
    public func start() async throws -> Int {
        if let host {
            try await host.join(HostedServer(
                runner: runner, held: mirror, perform: { [router] action in await Self.perform(action, on: router) },
                showTrouble: { [self] error in await showHostTrouble(error) }))
        }
        let port = try http.start()
        gate.bind(port: port)
        hub.startPinging()
        if host == nil { await runner.deck.start() }
        status.prepareDays()
        return port
    }

    /// Shows why the held copy may be behind (its host's store cannot be reached, or nobody runs the
    /// deck) above every panel and on the server's own panel (as the deck would show the error
    /// there), or the exported state again for nil.
    private func showHostTrouble(_ error: PanelError?) async {
        var own: ExportedPanel?
        let deck = runner.deck
        if let error, let id = configuration.ownPanelID, let declaration = await deck.declaration(of: id) {
            let scratch = Deck(deck.title, configuration: deck.configuration, panels: [declaration],
                               memories: mirror.heldMemory(of: id).map { [id: $0] } ?? [:])
            try? await scratch.push(.error(error), panel: id)
            own = (try? await scratch.panelState(id)).flatMap(mirror.exported)
        }
        mirror.setOwnState(notice: error.map { ErrorPresenter().card(for: $0) }, panel: own)
    }

    /// Runs an action another server sharing the deck let in, through the routes, signed with the
    /// caller that server's gate saw.
    private static func perform(_ action: ForwardedAction, on router: Router) async -> ForwardedAction.Answer {
        let response: HTTPResponse
        do {
            let request = try action.request()
            response = await ForwardedAction.$performedFor.withValue(action.caller) {
                await router.respond(to: request).answer()
            }
        } catch {
            response = .apiError(.badRequest, code: "bad_request", message: "\(error)")
        }
        return ForwardedAction.Answer(response: response)
    }

    /// Whether this server runs the deck: always alone, with a host while it says so.
    public var isRunningDeck: Bool { host?.isRunningDeck ?? true }

    /// The deck being served.
    public var deck: Deck { runner.deck }

    /// What this server's notifiers decided for `notify:` targets (`GET /api/notify/log`); a
    /// program embedding StateDeck may add its own decisions with ``NotificationLog/record(_:)``.
    public var notificationLog: NotificationLog { runner.notificationLog }

    /// Serves `newDeck` in place of the current deck, which is stopped. Every open page gets the
    /// new deck as a `snapshot` event.
    public func replaceDeck(with newDeck: Deck) async {
        await runner.replace(with: newDeck, running: isRunningDeck)
        status.prepareDays()
    }

    /// The newest event id issued.
    public var lastEventID: UInt64 { hub.lastEventID }

    /// The bound port (after `start()`).
    public var port: Int { http.port }

    /// Open SSE streams.
    public var liveStreamCount: Int { http.liveStreamCount }

    /// Requests whose answer is worked out off the transport's threads (actions, history reads, a
    /// stream waiting for events it was told of) and that have not ended; see
    /// `HTTPServer.deferredRequestCount`.
    public var deferredRequestCount: Int { http.deferredRequestCount }

    /// Ends every stream, stops accepting and cancels the deck's work; deliveries under way are
    /// then waited for `deliveries` at most (``DeckRunner``), and the history saves what waits
    /// (``historySaveLimit`` at most), so that a program ending after this loses nothing it
    /// recorded. Only then does the server leave its host (which may run the deck elsewhere): the
    /// next process to run it starts from what this one saved, and nothing this one does overlaps. The
    /// history store stays open: its owner, who made it, closes it.
    public func stop(waitingForDeliveries deliveries: Duration = .zero) async {
        hub.close()
        http.stop()
        await runner.stop(waitingForDeliveries: deliveries)
        if let history { await Self.save(history, within: Self.historySaveLimit) }
        await host?.leave()
    }

    /// The longest a stop waits for the history's save: a store gone silent (a PostgreSQL server
    /// whose packets are dropped) saves on after the stop returns. With the deliveries' wait and a
    /// host's leaving (a second at most), a stop still ends within 2 s.
    static let historySaveLimit: Duration = .milliseconds(600)

    /// Has `history` save what waits, waiting for it `limit` at most.
    private static func save(_ history: any HistoryStore, within limit: Duration) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let waiting = Locked<CheckedContinuation<Void, Never>?>(done)
            let resume: @Sendable () -> Void = { waiting.withLock { $0.take() }?.resume() }
            let deadline = Task {
                try? await Task.sleep(for: limit)
                resume()
            }
            Task {
                await history.saved()
                deadline.cancel()
                resume()
            }
        }
    }
}
