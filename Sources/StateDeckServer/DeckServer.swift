import EventStream
import Locking
import Logging
import MicroHTTP
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// The dashboard: one deck served over HTTP, its changes streamed to every open page, its
/// panels' outages told to their notify targets and to the page.
public final class DeckServer: Sendable {
    public let configuration: ServerConfiguration
    private let current: Locked<Deck>
    /// What the routes serve: the deck's state as `source` follows it, or as the cluster's store
    /// hands it over.
    private let mirror: StateMirror
    /// Follows the running deck: `mirror` itself, or in a cluster the leader's copy, whose events
    /// go to the store.
    private let source: StateMirror
    /// Several servers sharing the deck, and how to make a fresh deck for each time this one
    /// starts to lead (a deck once stopped does not start again).
    private let cluster: (cluster: any DeckCluster, makeDeck: @Sendable () async -> Deck)?
    private let leading = Locked(false)
    private let http: HTTPServer
    /// What answers each request, gate first: the router-level tests ask it without a socket.
    let responder: SecureResponder
    /// The routes without the gate, for actions another server of a cluster let in.
    private let router: Router
    private let hub: EventHub
    private let gate: RequestGate
    private let history: (any HistoryStore)?
    private let metrics: DeckMetrics
    private let logger: Logger
    /// Where outages in progress are kept, from one notifier to the next.
    private let notificationLedger: any NotificationLedger
    /// Follows the deck served; replaced with it.
    private let notifier = Locked<Notifier?>(nil)
    /// Hears each delivery to a `notify:` target.
    private let onNotificationDelivery: (@Sendable (Notifier.Delivery) -> Void)?
    /// The API's routes, method and pattern, as `docs/openapi.yaml` must list them.
    let routes: [(method: HTTPMethod, pattern: String)]

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
    /// - Parameter cluster: Other servers sharing this deck through a store, and how to make the
    ///   deck anew: the server then runs `deck` (and notifies, and records history) only while
    ///   the cluster says it leads, and serves what the store hands over.
    public init(deck: Deck, configuration: ServerConfiguration, history: (any HistoryStore)? = nil,
                notificationLedger: (any NotificationLedger)? = nil,
                onNotificationDelivery: (@Sendable (Notifier.Delivery) -> Void)? = nil,
                cluster: (cluster: any DeckCluster, makeDeck: @Sendable () async -> Deck)? = nil,
                logger: Logger = Logger(label: "statedeck")) async throws {
        guard configuration.isLoopback || configuration.token != nil else {
            throw DeckServerError.tokenRequired(host: configuration.host)
        }
        self.configuration = configuration
        self.history = history
        self.logger = logger
        self.notificationLedger = notificationLedger ?? OutageTable()
        self.onNotificationDelivery = onNotificationDelivery
        self.cluster = cluster
        let current = Locked(deck)
        self.current = current
        var hubConfiguration = EventHub.Configuration()
        hubConfiguration.pingInterval = configuration.pingInterval
        // In a cluster the store numbers events, and the hub takes the ids it gives, the newest
        // events it loads at join included: they are older than the history's last saved id, so
        // numbering after that id would turn every page that resumes here away with a snapshot.
        if cluster == nil {
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
        let mirror = StateMirror(debug: configuration.debug, pingInterval: configuration.pingInterval,
                                 history: timeline, hub: hub)
        self.mirror = mirror
        let source = cluster.map {
            StateMirror(debug: configuration.debug, pingInterval: configuration.pingInterval, history: timeline,
                        hub: hub, relay: $0.cluster.relay)
        } ?? mirror
        self.source = source
        metrics = DeckMetrics(hub: hub)
        if let history {
            history.trackEventIDs { hub.lastEventID }
            history.observeTrouble { error in source.setNotice(error.map { ErrorPresenter().card(for: $0) }) }
        }
        if let trouble = history?.trouble { source.setNotice(ErrorPresenter().card(for: trouble)) }

        let files = try StaticFiles(directory: configuration.publicDirectory)
        var router = Router { request, _ in .response(files.respond(to: request)) }
        let leading = leading
        APIRoutes(deck: { current.current }, mirror: mirror, history: history, metrics: metrics,
                  timeline: configuration.timeline, debugEnabled: configuration.debug,
                  streamCapacity: configuration.streamCapacity, catchUp: cluster == nil ? nil : .seconds(2),
                  settled: { await cluster?.cluster.settled() }) { request in
            guard let cluster, !leading.current else { return nil }
            return await Self.forward(request, through: cluster.cluster)
        }
        .register(on: &router)
        routes = router.routes
        self.router = router
        gate = RequestGate(configuredHost: configuration.host, publicAddresses: configuration.publicAddresses,
                           token: configuration.token)
        responder = SecureResponder(gate: gate, routes: router, files: files)
        http = HTTPServer(configuration: configuration.http, responder: responder, logger: logger)
        if cluster == nil { await prepareToRun(deck) }
    }

    /// Continues `deck` from the history, or where a replica holds a panel from what the pages
    /// were shown of it (newer), and follows it with the mirror, the metrics and a notifier; call
    /// before it starts, so no first load goes unheard.
    private func prepareToRun(_ deck: Deck) async {
        let shown = cluster == nil ? [:] : mirror.replicatedMemories()
        let kept = history?.memories(of: deck.panelIds) ?? [:]
        await deck.restore(kept.merging(shown) { _, newer in newer })
        if let history { await Self.record(deck, into: history) }
        await source.follow(deck, announce: cluster != nil)
        await metrics.follow(deck)
        await notify(deck)
    }

    /// Binds, starts the deck's loads (in a cluster: joins it, and runs the deck while it leads)
    /// and returns the port; the server then accepts connections.
    @discardableResult
    public func start() async throws -> Int {
        if let cluster {
            let member = ClusterMember(
                replica: mirror, leading: source, leadership: { [self] leads in await setLeading(leads) },
                runsDeck: { [leading] in leading.current }, perform: { [router] action in await Self.perform(action, on: router) },
                showTrouble: { [self] error in await showStoreTrouble(error) })
            try await cluster.cluster.join(member)
        }
        let port = try http.start()
        gate.bind(port: port)
        hub.startPinging()
        if cluster == nil { await deck.start() }
        return port
    }

    /// Runs the deck from now on, or stops it and makes a fresh one for the next time it leads.
    /// The cluster calls it with one change at a time, in order.
    ///
    /// A server says it leads (it takes actions, and its routes stop forwarding them) only once
    /// its deck is restored and started: an action taken before would be undone by the restore,
    /// though answered.
    private func setLeading(_ leads: Bool) async {
        guard let cluster, leads != leading.current else { return }
        if leads {
            logger.info("leading the cluster: running the deck's sources")
            // What the last leader kept (health, tallies, the notifications' ledger) is newer
            // than what this process read at its start: a failover tells no outage twice.
            history?.setWriting(true)
            let deck = current.current
            await prepareToRun(deck)
            await deck.start()
            leading.withLock { $0 = true }
        } else {
            leading.withLock { $0 = false }
            logger.warning("no longer leading the cluster: the deck's sources stop here")
            await notifier.withLock { $0.take() }?.stop()
            await current.current.stop()
            history?.setWriting(false)
            let fresh = await cluster.makeDeck()
            current.withLock { $0 = fresh }
        }
    }

    /// Shows that the cluster's store cannot be reached above every panel and on the server's own
    /// panel (as the deck would show the error there), or the replicated state again for nil.
    private func showStoreTrouble(_ error: PanelError?) async {
        var own: ReplicatedPanel?
        let deck = current.current
        if let error, let id = configuration.ownPanelID, let declaration = await deck.declaration(of: id) {
            let scratch = Deck(deck.title, configuration: deck.configuration, panels: [declaration],
                               memories: mirror.replicatedMemory(of: id).map { [id: $0] } ?? [:])
            try? await scratch.push(.error(error), panel: id)
            own = (try? await scratch.panelState(id)).flatMap(mirror.replicated)
        }
        mirror.setOwnState(notice: error.map { ErrorPresenter().card(for: $0) }, panel: own)
    }

    /// The leader's answer to an action this server let in, or 503 when no server leads.
    private static func forward(_ request: HTTPRequest, through cluster: any DeckCluster) async -> HTTPResponse {
        let action = ForwardedAction(method: request.method.rawValue, target: request.target, body: request.body)
        guard let answer = await cluster.forward(action) else {
            return .apiError(.serviceUnavailable, code: "no_leader",
                             message: "no server of the cluster runs the deck just now; try again in a few seconds")
        }
        return .api(HTTPStatus(rawValue: answer.status), answer.body)
    }

    /// Runs an action another server of the cluster let in, through the routes.
    private static func perform(_ action: ForwardedAction, on router: Router) async -> ForwardedAction.Answer {
        let response: HTTPResponse
        do {
            let request = try HTTPRequest(method: HTTPMethod(rawValue: action.method), target: action.target,
                                          headers: ["Content-Type": "application/json"], body: action.body)
            switch router.respond(to: request) {
            case .response(let answer): response = answer
            case .deferred(let work): response = await work()
            }
        } catch {
            response = .apiError(.badRequest, code: "bad_request", message: "\(error)")
        }
        let body: [UInt8] = switch response.body {
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.bytes
        case .stream: []
        }
        return ForwardedAction.Answer(status: response.status.rawValue, body: body)
    }

    /// Whether this server runs the deck: always alone, while it leads in a cluster.
    public var isRunningDeck: Bool { cluster == nil || leading.current }

    /// The deck being served.
    public var deck: Deck { current.current }

    /// Serves `newDeck` in place of the current deck, which is stopped. Every open page gets the
    /// new deck as a `snapshot` event.
    public func replaceDeck(with newDeck: Deck) async {
        let old = current.withLock { deck in
            defer { deck = newDeck }
            return deck
        }
        await old.stop()
        guard isRunningDeck else { return }
        if let history { await Self.record(newDeck, into: history) }
        await notify(newDeck)
        await source.follow(newDeck, announce: true)
        await metrics.follow(newDeck)
        await newDeck.start()
    }

    /// Hands every change of `deck` to `history`.
    private static func record(_ deck: Deck, into history: any HistoryStore) async {
        await deck.observe { event in
            if case .change(let change) = event { history.record(change) }
        }
    }

    /// Tells the outages of `deck`'s panels to their targets and to the page from now on, in place
    /// of the deck followed before; call it before the deck starts, so no first load goes unheard.
    /// A delivery that fails is logged and shown as a toast on the deck served then.
    private func notify(_ deck: Deck) async {
        await notifier.withLock { $0.take() }?.stop()
        let notifier = Notifier(Notifier.Subscription.all(of: deck, page: PageAnnouncer(relay: source.relay)),
                                ledger: notificationLedger)
        await notifier.onDelivery { [metrics, logger, current, onNotificationDelivery] delivery in
            guard delivery.target != PageAnnouncer.targetName else { return }
            metrics.countNotification(delivery.outcome)
            onNotificationDelivery?(delivery)
            let told = "notification \(delivery.notification.event.rawValue) of \(delivery.notification.panel)"
            switch delivery.outcome {
            case .sent:
                return
            case .failed(let failure):
                logger.error("\(told) not sent: \(failure)")
                Task { await current.current.announce("A notification could not be sent: \(failure)", style: .error) }
            case .dropped(let reason):
                logger.warning("\(told) to \(delivery.target) dropped (\(delivery.notification.message)): \(reason)")
            }
        }
        await notifier.follow(deck)
        self.notifier.withLock { $0 = notifier }
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

    /// Ends every stream, stops accepting and cancels the deck's work.
    ///
    /// The deck is stopped at high priority: its actor runs waiting jobs by priority, so the stop
    /// goes before a backlog of finished loads (thousands, on a deck that just started) instead of
    /// after it. Deliveries under way are then waited for `deliveries` at most: one whose target
    /// answers meanwhile is forgotten in the ledger rather than sent again by the next run.
    public func stop(waitingForDeliveries deliveries: Duration = .zero) async {
        await cluster?.cluster.leave()
        hub.close()
        http.stop()
        let deck = current.current
        await Task(priority: .high) { await deck.stop() }.value
        guard let notifier = notifier.withLock({ $0.take() }) else { return }
        await notifier.finishDeliveries(within: deliveries)
        await notifier.stop()
    }
}
