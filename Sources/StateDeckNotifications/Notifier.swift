import FoundationEssentials
import Locking
import StateDeck

/// Tells targets when panels go down, stay down and come back, by the rules of ``NotifyRule``.
///
/// It hears the deck's changes in order through one queue, never on the deck's actor, gathers
/// what it decides for each target within the rule's window (``NotificationOutbox``), and sends
/// each message in a task of its own: a slow or failing target holds up nothing. What a target has
/// not taken yet is bounded by the outbox's rules and ``Limits``. What it decided, and what became
/// of it, goes in its ``NotificationLog``.
public actor Notifier {
    /// How much a target that does not answer may have owed to it.
    public struct Limits: Sendable {
        /// Deliveries one target (by address) may have sent or collecting; more are dropped. Each
        /// notify entry has at most two (``NotificationOutbox``), so this bounds a deck of many panels.
        public var owedPerTarget = 1_000
        /// How old a delivery an earlier run left undone may be and still be sent at start: an
        /// outage over an hour ago is news nobody can act on. The failure of an outage still open,
        /// and the recovery of a failure the target was told, are sent however old.
        public var horizon: Duration = .seconds(3_600)
        /// When a message the ledger has not kept (its write failed: a full or read-only disk) is
        /// tried again: after the first delay, doubled after each failure up to the longest; it
        /// waits, collecting, until the ledger has it. A disk full for hours is not asked every second.
        public var ledgerRetryDelays: ClosedRange<Duration> = .seconds(1)...(.seconds(30))

        public init() {}
    }

    /// One `notify:` entry of one panel, or the page's desktop notifications of it: its rule and
    /// its target.
    public struct Subscription: Sendable {
        public var panel: String
        public var rule: NotifyRule
        public var target: any NotificationTarget
        /// Which of the panel's entries it is, by what it sends to and its rule
        /// (``entryDigest(target:rule:)``), nil for the page's: with the panel's id, the key its
        /// outage is kept under.
        public var entry: String?

        /// The panel's entry telling `target` by `rule`; `repeated` counts the same entry earlier in
        /// the panel's list (0 for the first), so that an entry written twice keeps two outages.
        public init(panel: String, rule: NotifyRule, target: any NotificationTarget, repeated: Int = 0) {
            self.init(panel: panel, rule: rule, target: target,
                      entry: Self.entryDigest(target: target, rule: rule) + (repeated == 0 ? "" : "+\(repeated)"))
        }

        private init(panel: String, rule: NotifyRule, target: any NotificationTarget, entry: String?) {
            self.panel = panel
            self.rule = rule
            self.target = target
            self.entry = entry
        }

        /// The page's desktop notifications of `panel`, by `rule`.
        public static func page(panel: String, rule: NotifyRule, target: any NotificationTarget) -> Subscription {
            Subscription(panel: panel, rule: rule, target: target, entry: nil)
        }

        /// `api#` and the entry's digest for an entry of panel `api`, `api#page` for the page's.
        public var key: String { "\(panel)#\(entry ?? "page")" }

        /// Whether it tells the page rather than a `notify:` entry's target.
        public var isPage: Bool { entry == nil }

        /// The SHA-256, in hex, of `target`'s address and `rule` (``NotifyRule/identity``, `gather`
        /// aside): the same entry wherever it is in the list, a new one once either is edited.
        /// One-way, since an address may hold a secret
        /// (a header's value, a command's environment, a URL's password or token) and the key is
        /// written into the history.
        public static func entryDigest(target: any NotificationTarget, rule: NotifyRule) -> String {
            SHA256.digest(Array((target.address + "\n" + rule.identity).utf8)).lowercaseHex
        }

        /// Whether `key` is one an older StateDeck wrote, by the entry's place in its panel's list
        /// (`api#0`): such an outage cannot be told from another entry's, and is forgotten quietly.
        static func isPositional(_ key: String) -> Bool {
            guard let mark = key.lastIndex(of: "#") else { return false }
            let index = key[key.index(after: mark)...]
            return !index.isEmpty && index.count < 64 && index.allSatisfy(\.isASCII) && index.allSatisfy(\.isNumber)
        }
    }

    /// What happened to a message: one notification, or several gathered; or to a notification
    /// never sent.
    public struct Delivery: Sendable {
        public enum Outcome: Sendable, Equatable {
            case sent
            /// The target gave up, for this reason.
            case failed(String)
            /// Never sent, for this reason: over its target's limit, or too old at start.
            case dropped(String)
        }

        /// What the message told, each as it would have been told alone: one unless gathered.
        public var notifications: [DeckNotification]
        /// The message's line: the notification's, or the gathered one's.
        public var message: String
        public var target: String
        public var outcome: Outcome
    }

    private let subscriptions: [String: [Subscription]]
    /// The same subscriptions by key, the key outages are kept under.
    let subscriptionsByKey: [String: Subscription]
    let ledger: (any NotificationLedger)?
    /// The decisions for `notify:` targets and what became of them.
    public nonisolated let log: NotificationLog
    let now: @Sendable () -> Date
    let clock: any Clock<Duration>
    let limits: Limits
    var watches: [String: OutageWatch]
    /// What an earlier run, or the notifier before this one, decided and never delivered, taken up
    /// once the notifier follows a deck.
    private var undelivered: [PendingDelivery]
    /// Those of `undelivered` the notifier before this one carried.
    private let carried: Set<PendingDelivery.ID>
    /// What the targets are owed, gathered.
    var outbox: NotificationOutbox
    /// Each gathering window open, by group: it ends when its task wakes.
    var windows: [NotificationOutbox.Group: Task<Void, Never>] = [:]
    /// Deliveries under way, the page's included.
    var sending: Set<PendingDelivery.ID> = []
    /// Groups whose message waits for the ledger to keep it, and the task that tries them again.
    var awaitingLedger: Set<NotificationOutbox.Group> = []
    var ledgerRetry: Task<Void, Never>?
    /// The wait before the next try of the ledger: the first of ``Limits/ledgerRetryDelays`` until a try fails.
    var ledgerRetryDelay: Duration
    var panels: [String: (title: String, group: String?)] = [:]
    /// What each panel is under that quiets its notifications, from the deck followed.
    var quiet = NotificationQuiet(dependencies: [:], panels: [])
    /// When the deck followed calls a panel flapping; nil when it never does.
    var flappingRule: FlappingRule?
    private var timer: Task<Void, Never>?
    /// When `timer` wakes; nil when no timer waits.
    private var timerDue: Date?
    var deliveries: [@Sendable (Delivery) -> Void] = []
    private let changes: AsyncStream<PanelChange>
    private let input: AsyncStream<PanelChange>.Continuation
    private var consumer: Task<Void, Never>?

    /// Rules of `subscriptions`, outages and deliveries left undone continued from `ledger`, with
    /// `carried`, what the notifier stopped before this one still collected (``stop()``); `now`
    /// and `clock` are the wall time and the clock of waits (a test's are virtual).
    public init(
        _ subscriptions: [Subscription], ledger: (any NotificationLedger)?, carrying carried: [PendingDelivery] = [],
        log: NotificationLog = NotificationLog(), limits: Limits = Limits(),
        now: @escaping @Sendable () -> Date = { Date() }, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.subscriptions = Dictionary(grouping: subscriptions, by: \.panel)
        subscriptionsByKey = Dictionary(subscriptions.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        self.ledger = ledger
        self.log = log
        self.limits = limits
        ledgerRetryDelay = limits.ledgerRetryDelays.lowerBound
        outbox = NotificationOutbox(limit: limits.owedPerTarget)
        self.now = now
        self.clock = clock
        let keys = Set(subscriptions.map(\.key))
        let kept = ledger?.outages() ?? [:]
        watches = kept.filter { keys.contains($0.key) }
        Notifier.logForgotten(kept.filter { !keys.contains($0.key) }, log: log, at: now())
        // A delivery of an entry the deck no longer has goes nowhere, one under way included:
        // nobody asks for it any more.
        ledger?.forget(keysOutside: keys)
        // Each in the order it was decided (a wall clock set back gives a later one an earlier
        // time): an earlier run's as the ledger numbered them, or what the notifier before this
        // one collected, in its order.
        undelivered = (ledger?.takeUndelivered() ?? []) + carried.filter { keys.contains($0.key) }
        self.carried = Set(carried.map(\.id))
        (changes, input) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Logs the end of `outages`, kept under entries the deck followed now does not have (their
    /// panel was removed, or the entry, or it was edited into another:
    /// ``Subscription/entryDigest(target:rule:)``), which the ledger forgets. Each ends quietly,
    /// told to no one, so a panel re-added weeks later is not told up again after an outage nobody
    /// watched; the log says "removed while down" of an entry's. Those an older StateDeck kept by
    /// position (``Subscription/isPositional(_:)``) go unlogged, as do the page's.
    private static func logForgotten(_ outages: [String: OutageWatch], log: NotificationLog, at date: Date) {
        for (key, watch) in outages.sorted(by: { $0.key < $1.key }) {
            guard let mark = key.lastIndex(of: "#"), !key.hasSuffix("#page"), !Subscription.isPositional(key) else { continue }
            let panel = String(key[..<mark])
            log.record(NotificationLog.Entry(at: date, event: .recovery, panels: [panel],
                                             message: "\(panel) was down when its notify entry was removed",
                                             target: watch.target ?? "", outcome: .silent("removed while down")))
        }
    }

    /// Calls `observer` after each delivery, sent or failed.
    public func onDelivery(_ observer: @escaping @Sendable (Delivery) -> Void) {
        deliveries.append(observer)
    }

    /// Follows `deck`'s changes until ``stop()``; the first call delivers what an earlier run left
    /// undone and still true (``resume(_:carried:)``).
    public func follow(_ deck: Deck) async {
        let snapshot = await deck.snapshot()
        panels = Dictionary(uniqueKeysWithValues: snapshot.panels.map { ($0.id, ($0.title, $0.group)) })
        quiet = NotificationQuiet(dependencies: deck.dependencies, panels: snapshot.panels)
        flappingRule = deck.configuration.flapping
        let input = input
        // The observer runs on the deck's actor, with every change of every panel: only what can
        // start, continue or end an outage is queued, never a healthy panel's loads. Outages
        // follow the health the deck decided: a failed result starts or continues one (its error
        // is what is told), and only health up again ends it, so a dismissed card does not. A
        // failing panel's good results are queued as many in a row as the most any of its rules
        // waits for before a recovery.
        let successesNeeded = subscriptions.mapValues { list in list.map(\.rule.successes).max() ?? 1 }
        let failing = Locked(Dictionary(watches.keys.compactMap { key in
            subscriptionsByKey[key].map { ($0.panel, successesNeeded[$0.panel] ?? 1) }
        }) { first, _ in first })
        // What quiets notifications is queued too: every mark (a window opening or ending,
        // flapping ending), and each change of health of a panel that depends or is depended on.
        let followed = quiet.followed
        let followedHealth = Locked(snapshot.panels.reduce(into: [String: Health]()) { health, panel in
            if followed.contains(panel.id) { health[panel.id] = panel.health }
        })
        await deck.observe { event in
            guard case .change(let change) = event, change.cause != .debug else { return }
            let healthChanged = followed.contains(change.panel)
                && followedHealth.withLock { $0.updateValue(change.health, forKey: change.panel) != change.health }
            if change.cause == .mark || Self.endsOrContinuesAnOutage(change, failing: failing, successesNeeded: successesNeeded)
                || healthChanged {
                input.yield(change)
            }
        }
        if consumer == nil {
            let changes = changes
            consumer = Task { [weak self] in
                for await change in changes { await self?.handle(change) }
            }
        }
        resume(undelivered, carried: carried)
        undelivered = []
        armTimer()
    }

    /// Stops following: nothing more is decided, and no window ends here. Returns what the
    /// targets (the page's included) were owed and not being sent (in a window, behind a message
    /// under way, or waiting for the ledger to keep it): for the notifier of the deck served next
    /// (``init(_:ledger:carrying:log:limits:now:clock:)``), which the ledger does not hand it again.
    @discardableResult
    public func stop() -> [PendingDelivery] {
        input.finish()
        consumer?.cancel()
        timer?.cancel()
        windows.values.forEach { $0.cancel() }
        windows = [:]
        ledgerRetry?.cancel()
        ledgerRetry = nil
        awaitingLedger = []
        return outbox.takeCollecting()
    }

    /// Waits for the deliveries under way, `limit` at most: at the process's stop, so that one whose
    /// target answers meanwhile is forgotten in the ledger rather than sent again by the next run.
    /// What is still under way then (a webhook waiting to retry) is left to the next run.
    public func finishDeliveries(within limit: Duration) async {
        var waited = Duration.zero
        while !sending.isEmpty, waited < limit {
            try? await clock.sleep(for: .milliseconds(10))
            waited += .milliseconds(10)
        }
    }

    /// The outage of each subscription, by key, for tests and the health panel.
    public var outages: [String: OutageWatch] { watches }

    /// Changes handled so far: what the deck's observer queued.
    var handledChanges = 0

    /// Whether the deck's observer queues `change` for what it does to outages (a failed result, or
    /// one of the good results a failing panel's recovery waits for), counting those good results.
    private nonisolated static func endsOrContinuesAnOutage(_ change: PanelChange, failing: Locked<[String: Int]>,
                                                            successesNeeded: [String: Int]) -> Bool {
        guard change.cause != .mark else { return false }
        switch change.health {
        case .down:
            guard let needed = successesNeeded[change.panel], case .error = change.state else { return false }
            failing.withLock { $0[change.panel] = needed }
            return true
        case .up:
            return failing.withLock { failing -> Bool in
                guard let left = failing[change.panel] else { return false }
                failing[change.panel] = left > 1 ? left - 1 : nil
                return true
            }
        case .loading, .unknown:
            return false
        }
    }

    /// The subscriptions of `panel`.
    func subscriptions(of panel: String) -> [Subscription] {
        subscriptions[panel] ?? []
    }

    private func handle(_ change: PanelChange) {
        handledChanges += 1
        let lifted = quiet.update(with: change)
        // A mark changes what quiets the panel, not its outage.
        if change.cause != .mark { decide(change) }
        if lifted.beganFlapping { tellFlapping(change.panel, at: change.at) }
        if lifted.ownQuiet { reconsider(change.panel, at: change.at) }
        for panel in lifted.dependents { reconsider(panel, at: change.at, afterItsDependency: true) }
    }

    /// Takes `change`'s result into each outage of its panel. Debug-forced states, and changes that
    /// neither fail nor end an outage, were left out by the deck's observer; a change of health of
    /// a panel others depend on may reach here with no outage to change.
    private func decide(_ change: PanelChange) {
        let list = subscriptions(of: change.panel)
        let summary = change.state.errorSummary
        let quietNow = quiet.quiet(for: change.panel)
        for subscription in list {
            var watch = watches[subscription.key] ?? OutageWatch()
            let before = watch
            var told: DeckNotification?
            switch change.health {
            case .down where watch.silenced && quietNow == nil, .up where watch.silenced && quietNow == nil:
                // Within a notifier's life a window's end is heard and tells a failure it kept
                // quiet (``reconsider(_:at:afterItsDependency:)``): this one ended unheard.
                told = afterUnheardWindow(change, of: subscription, watch: &watch)
            case .down:
                if let summary, let event = watch.failed(with: summary, at: change.at, rule: subscription.rule) {
                    told = notification(event, of: subscription, watch: watch, at: change.at)
                }
            case .up:
                if let (_, downSince, upSince) = watch.succeeded(at: change.at, rule: subscription.rule) {
                    told = recovery(of: subscription, downSince: downSince, upSince: upSince)
                }
            case .loading, .unknown:
                continue
            }
            if let notification = told, let quietNow {
                told = hush(notification, of: subscription, under: quietNow, watch: &watch, before: before)
            }
            keep(watch, of: subscription, sending: told)
            if let due = watch.nextDue(rule: subscription.rule) { wake(at: due) }
        }
    }

    /// Sends what is due without a load (time down, reminders), then waits for the next. Only
    /// outages in progress can have something due.
    private func tick() {
        timerDue = nil
        let date = now()
        for (key, outage) in watches {
            guard let subscription = subscriptionsByKey[key] else { continue }
            var watch = outage
            guard let event = watch.due(at: date, rule: subscription.rule) else { continue }
            var told: DeckNotification? = notification(event, of: subscription, watch: watch, at: date)
            if let notification = told, let quietNow = quiet.quiet(for: subscription.panel) {
                told = hush(notification, of: subscription, under: quietNow, watch: &watch, before: outage)
            }
            keep(watch, of: subscription, sending: told)
        }
        armTimer()
    }

    /// Waits for the earliest time an outage in progress has something due, unless the timer
    /// waits for it already. It looks at every outage: only when following starts and after a
    /// tick, never at each change (10,000 panels down at once would make that quadratic).
    private func armTimer() {
        let next = watches.compactMap { key, watch in subscriptionsByKey[key].flatMap { watch.nextDue(rule: $0.rule) } }.min()
        guard next != timerDue else { return }
        timer?.cancel()
        timerDue = nil
        if let next { wake(at: next) }
    }

    /// Wakes at `date` unless the timer wakes earlier already. An outage that ends leaves its
    /// wake-up in place: the tick then finds nothing due and looks again.
    func wake(at date: Date) {
        if let timerDue, timerDue <= date { return }
        timer?.cancel()
        timerDue = date
        let delay = Duration.seconds(max(0, date.timeIntervalSince(now())))
        timer = Task { [clock, weak self] in
            guard (try? await clock.sleep(for: delay)) != nil else { return }
            await self?.tick()
        }
    }

    /// Keeps `watch` as `subscription`'s outage and hands `notification`, if any, to the outbox:
    /// the ledger keeps the outage with what the outbox owes when it is decided, before its window
    /// ends, so a told failure is on disk before it is sent. The page's deliveries are not kept:
    /// the page is whoever is connected when it is told.
    func keep(_ watch: OutageWatch, of subscription: Subscription, sending notification: DeckNotification?) {
        let key = subscription.key
        var kept = watch.downSince == nil ? nil : watch
        kept?.target = subscription.target.name
        let delivery = notification.map { PendingDelivery(key: key, notification: $0) }
        guard watches[key] != kept || delivery != nil else { return }
        watches[key] = kept
        guard let delivery else {
            ledger?.keep(kept, for: key, delivering: nil, replacing: nil)
            return
        }
        // What the outbox made of it may change the outage (a withdrawal): the ledger keeps it as
        // it then stands.
        admit(delivery, of: subscription) { admission in
            if subscription.isPage {
                ledger?.keep(watches[key], for: key, delivering: nil, replacing: nil)
            } else {
                ledger?.keep(watches[key], for: key, delivering: admission.owed, replacing: admission.replaced)
            }
        }
    }

    /// The recovery of `subscription`'s outage from `downSince`, up again since `upSince`.
    func recovery(of subscription: Subscription, downSince: Date, upSince: Date) -> DeckNotification {
        var ended = OutageWatch()
        ended.downSince = downSince
        return notification(.recovery, of: subscription, watch: ended, at: upSince)
    }

    func notification(_ event: DeckNotification.Event, of subscription: Subscription, watch: OutageWatch,
                      at date: Date) -> DeckNotification {
        let panel = panels[subscription.panel]
        return namingDependents(DeckNotification(
            event: event, panel: subscription.panel, title: panel?.title ?? subscription.panel, group: panel?.group,
            error: event == .recovery ? nil : watch.error, downSince: watch.downSince ?? date, at: date))
    }
}

extension ViewState {
    /// The error card's kind, title and message, for an error.
    var errorSummary: DeckNotification.ErrorSummary? {
        guard case .error(let error) = self else { return nil }
        let card = ErrorPresenter().card(for: error)
        return DeckNotification.ErrorSummary(kind: card.kind.rawValue, title: card.title, message: card.description)
    }
}
