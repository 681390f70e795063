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
    private let mirror: StateMirror
    private let http: HTTPServer
    /// What answers each request, gate first: the router-level tests ask it without a socket.
    let responder: SecureResponder
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
    public init(deck: Deck, configuration: ServerConfiguration, history: (any HistoryStore)? = nil,
                notificationLedger: (any NotificationLedger)? = nil,
                onNotificationDelivery: (@Sendable (Notifier.Delivery) -> Void)? = nil,
                logger: Logger = Logger(label: "statedeck")) async throws {
        guard configuration.isLoopback || configuration.token != nil else {
            throw DeckServerError.tokenRequired(host: configuration.host)
        }
        self.configuration = configuration
        self.history = history
        self.logger = logger
        self.notificationLedger = notificationLedger ?? OutageTable()
        self.onNotificationDelivery = onNotificationDelivery
        let current = Locked(deck)
        self.current = current
        var hubConfiguration = EventHub.Configuration()
        hubConfiguration.pingInterval = configuration.pingInterval
        hubConfiguration.earlierLastEventID = history?.lastEventID ?? 0
        let hub = EventHub(configuration: hubConfiguration)
        self.hub = hub
        let timeline = history.map { _ in
            PageSettings.HistorySettings(timelineSpanMs: Int(configuration.timeline.span / .milliseconds(1)),
                                         timelineSlots: configuration.timeline.slots)
        }
        let mirror = StateMirror(debug: configuration.debug, pingInterval: configuration.pingInterval,
                                 history: timeline, hub: hub)
        self.mirror = mirror
        if let history {
            history.trackEventIDs { hub.lastEventID }
            history.observeTrouble { error in mirror.setNotice(error.map { ErrorPresenter().card(for: $0) }) }
            await deck.restore(history.memories(of: deck.panelIds))
            await Self.record(deck, into: history)
        }
        await mirror.follow(deck)
        let metrics = DeckMetrics(hub: hub)
        self.metrics = metrics
        await metrics.follow(deck)
        if let trouble = history?.trouble { mirror.setNotice(ErrorPresenter().card(for: trouble)) }

        let files = try StaticFiles(directory: configuration.publicDirectory)
        var router = Router { request, _ in .response(files.respond(to: request)) }
        APIRoutes(deck: { current.current }, mirror: mirror, history: history, metrics: metrics,
                  timeline: configuration.timeline, debugEnabled: configuration.debug,
                  streamCapacity: configuration.streamCapacity)
            .register(on: &router)
        routes = router.routes
        gate = RequestGate(configuredHost: configuration.host, token: configuration.token)
        responder = SecureResponder(gate: gate, routes: router, files: files)
        http = HTTPServer(configuration: configuration.http, responder: responder, logger: logger)
        await notify(deck)
    }

    /// Binds, starts the deck's loads and returns the port; the server then accepts connections.
    @discardableResult
    public func start() async throws -> Int {
        let port = try http.start()
        gate.bind(port: port)
        hub.startPinging()
        await deck.start()
        return port
    }

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
        if let history { await Self.record(newDeck, into: history) }
        await notify(newDeck)
        await mirror.follow(newDeck, announce: true)
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
        let notifier = Notifier(Notifier.Subscription.all(of: deck, page: PageAnnouncer(hub: hub)), ledger: notificationLedger)
        await notifier.onDelivery { [metrics, logger, current, onNotificationDelivery] delivery in
            guard delivery.target != PageAnnouncer.targetName else { return }
            metrics.countNotification(delivered: delivery.failure == nil)
            onNotificationDelivery?(delivery)
            guard let failure = delivery.failure else { return }
            logger.error("notification \(delivery.notification.event.rawValue) of \(delivery.notification.panel) not sent: \(failure)")
            Task { await current.current.announce("A notification could not be sent: \(failure)", style: .error) }
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

    /// Ends every stream, stops accepting and cancels the deck's work.
    ///
    /// The deck is stopped at high priority: its actor runs waiting jobs by priority, so the stop
    /// goes before a backlog of finished loads (thousands, on a deck that just started) instead of
    /// after it. Deliveries under way are then waited for `deliveries` at most: one whose target
    /// answers meanwhile is forgotten in the ledger rather than sent again by the next run.
    public func stop(waitingForDeliveries deliveries: Duration = .zero) async {
        hub.close()
        http.stop()
        let deck = current.current
        await Task(priority: .high) { await deck.stop() }.value
        guard let notifier = notifier.withLock({ $0.take() }) else { return }
        await notifier.finishDeliveries(within: deliveries)
        await notifier.stop()
    }
}
