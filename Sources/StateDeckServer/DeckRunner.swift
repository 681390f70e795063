import Locking
import Logging
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// Runs the deck a server serves: continues it from the history (or from what the pages were
/// shown, where a held copy has it), keeps its changes in the history, tells its outages to their
/// targets and the page, and has the mirror and the metrics follow it. A server alone runs its deck
/// from the start; one with a ``DeckHost`` only while the host says so.
public final class DeckRunner: Sendable {
    private let current: Locked<Deck>
    /// Follows the running deck: the mirror served, or with a host the copy exported, whose
    /// events go to the store.
    let source: StateMirror
    /// The copy a host feeds, whose panels are newer than the history (up to its writer's interval).
    private let held: StateMirror?
    private let history: (any HistoryStore)?
    private let metrics: DeckMetrics
    /// Where outages in progress are kept, from one notifier to the next.
    private let notificationLedger: any NotificationLedger
    /// Hears each delivery to a `notify:` target.
    private let onNotificationDelivery: (@Sendable (Notifier.Delivery) -> Void)?
    /// Follows the deck run; replaced with it.
    private let notifier = Locked<Notifier?>(nil)
    /// Tells the running deck's incidents to its incident targets; replaced with it.
    private let incidentAnnouncer = Locked<IncidentAnnouncer?>(nil)
    /// What the notifiers decided for `notify:` targets, and what became of it: one log for every
    /// deck this runner serves (`GET /api/notify/log`).
    public let notificationLog = NotificationLog()
    private let logger: Logger

    init(deck: Deck, source: StateMirror, held: StateMirror?, history: (any HistoryStore)?, metrics: DeckMetrics,
         notificationLedger: any NotificationLedger, onNotificationDelivery: (@Sendable (Notifier.Delivery) -> Void)?,
         logger: Logger) {
        current = Locked(deck)
        self.source = source
        self.held = held
        self.history = history
        self.metrics = metrics
        self.notificationLedger = notificationLedger
        self.onNotificationDelivery = onNotificationDelivery
        self.logger = logger
    }

    /// The deck being served.
    public var deck: Deck { current.current }

    /// Runs the deck on a history another process may have written since this one read it (a
    /// process that ran the deck before): reads it anew, so that what it kept (health, tallies, the
    /// notifications' ledger) is where the deck goes on and a failover tells no outage twice; then
    /// continues the deck from it and the held copy, follows it and starts it. A history that cannot
    /// be taken over or read leaves the deck stopped and returns false: a deck whose history is
    /// not written would count nothing and tell outages the process before told.
    public func runTakingOverHistory() async -> Bool {
        guard history?.setWriting(true) ?? true else { return false }
        await prepare()
        await deck.start()
        return true
    }

    /// Calls `observer` when another process took the history over while this one wrote it.
    public func observeLostHistory(_ observer: @escaping @Sendable () -> Void) {
        history?.observeLostWriting(observer)
    }

    /// Continues the deck from the history, or where the held copy holds a panel from what the
    /// pages were shown of it and its flapping count, and follows it with the mirror, the metrics
    /// and a notifier; done before it starts, so no first load goes unheard.
    func prepare() async {
        let deck = deck
        let shown = held?.heldMemories() ?? [:]
        let kept = history?.memories(of: deck.panelIds) ?? [:]
        await deck.restore(kept.merging(shown) { _, newer in newer })
        await deck.restoreMaintenance(history?.keptMaintenance ?? [])
        await deck.restoreIncidents(history?.keptIncidents ?? [])
        await follow(deck, announce: held != nil)
    }

    /// Keeps `deck`'s changes in the history, and has the mirror (telling open pages of the new
    /// deck with `announce`), the metrics and a notifier follow it; call before it starts. A panel
    /// the history counts or the ledger keeps an outage of that `deck` lacks was removed: the
    /// history counts it no more and the notifier forgets its outage, told to no one.
    private func follow(_ deck: Deck, announce: Bool) async {
        if let history {
            history.follow(panels: deck.panelIds)
            await Self.record(deck, into: history)
        }
        await source.follow(deck, announce: announce)
        await metrics.follow(deck)
        await notify(deck)
    }

    /// Stops running the deck (and saves what the history holds), keeping `fresh` to run next
    /// time: a deck once stopped does not start again.
    public func stop(keeping fresh: Deck) async {
        await notifier.withLock { $0.take() }?.stop()
        incidentAnnouncer.withLock { $0.take() }?.stop()
        await current.current.stop()
        history?.setWriting(false)
        current.withLock { $0 = fresh }
    }

    /// Serves `newDeck` in place of the current deck, which is stopped, with the maintenance
    /// windows started or ended by hand on it; runs it when `running`.
    func replace(with newDeck: Deck, running: Bool) async {
        let old = current.withLock { deck in
            defer { deck = newDeck }
            return deck
        }
        await old.stop()
        await newDeck.restoreMaintenance(await old.keptMaintenance())
        await newDeck.restoreIncidents(await old.keptIncidents())
        guard running else { return }
        await follow(newDeck, announce: true)
        await newDeck.start()
    }

    /// Stops the deck at high priority, then gives deliveries under way `deliveries` at most.
    ///
    /// The deck's actor runs waiting jobs by priority, so the stop goes before a backlog of
    /// finished loads (thousands, on a deck that just started) instead of after it. A delivery
    /// whose target answers meanwhile is forgotten in the ledger rather than sent again by the
    /// next run.
    func stop(waitingForDeliveries deliveries: Duration) async {
        let deck = deck
        await Task(priority: .high) { await deck.stop() }.value
        incidentAnnouncer.withLock { $0.take() }?.stop()
        guard let notifier = notifier.withLock({ $0.take() }) else { return }
        await notifier.finishDeliveries(within: deliveries)
        await notifier.stop()
    }

    /// Hands every change of `deck` to `history`, the maintenance windows started or ended by
    /// hand, and the incidents opened or updated.
    private static func record(_ deck: Deck, into history: any HistoryStore) async {
        await deck.observe { event in
            switch event {
            case .change(let change): history.record(change)
            case .maintenance(_, let keep) where !keep.isEmpty: history.keep(keep)
            case .incidents(_, let keep) where !keep.isEmpty: history.keep(incidents: keep)
            default: break
            }
        }
    }

    /// Tells the outages of `deck`'s panels to their targets and to the page from now on, in place
    /// of the deck followed before, taking up what its notifier still gathered; call it before the
    /// deck starts, so no first load goes unheard. A delivery that fails is logged and shown as a
    /// toast on the deck served then.
    private func notify(_ deck: Deck) async {
        let carried = await notifier.withLock { $0.take() }?.stop() ?? []
        let notifier = Notifier(Notifier.Subscription.all(of: deck, page: PageAnnouncer(relay: source.relay)),
                                ledger: notificationLedger, carrying: carried, log: notificationLog,
                                now: deck.configuration.now, clock: deck.configuration.clock)
        await notifier.onDelivery { [metrics, logger, current, onNotificationDelivery] delivery in
            guard delivery.target != PageAnnouncer.targetName else { return }
            metrics.countNotifications(delivery)
            onNotificationDelivery?(delivery)
            let told = delivery.notifications.count == 1
                ? "notification \(delivery.notifications[0].event.rawValue) of \(delivery.notifications[0].panel)"
                : "\(delivery.notifications.count) notifications gathered"
            switch delivery.outcome {
            case .sent:
                return
            case .failed(let failure):
                logger.error("\(told) not sent: \(failure)")
                Task { await current.current.announce("A notification could not be sent: \(failure)", style: .error) }
            case .dropped(let reason):
                logger.warning("\(told) to \(delivery.target) dropped (\(delivery.message)): \(reason)")
            }
        }
        await notifier.follow(deck)
        self.notifier.withLock { $0 = notifier }
        await announceIncidents(of: deck)
    }

    /// Tells `deck`'s incidents to its incident targets from now on, in place of the deck followed
    /// before; a step not sent is logged and shown as a toast, as an outage's notification is.
    private func announceIncidents(of deck: Deck) async {
        let announcer = IncidentAnnouncer(targets: deck.configuration.incidentTargets, log: notificationLog) {
            [logger, current] failure in
            logger.error("incident notification not sent: \(failure)")
            Task { await current.current.announce("A notification could not be sent: \(failure)", style: .error) }
        }
        await announcer.follow(deck)
        incidentAnnouncer.withLock { $0.take() }?.stop()
        incidentAnnouncer.withLock { $0 = announcer }
    }
}
