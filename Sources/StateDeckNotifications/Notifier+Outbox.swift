import FoundationEssentials
import StateDeck

/// How a notifier hands what it decides to the outbox, ends gathering windows, sends messages and
/// says what became of them.
extension Notifier {
    /// Whose messages `subscription`'s deliveries join: its target's address and window, or with
    /// `gather: off`, the entry alone.
    func group(of subscription: Subscription) -> NotificationOutbox.Group {
        let window = subscription.rule.gather
        return NotificationOutbox.Group(address: subscription.target.address, window: window,
                                        entry: window > .zero ? nil : subscription.key)
    }

    /// Hands `delivery` to the outbox for `subscription`'s target, `record`ing the admission in
    /// the ledger before anything is sent, and opens the target's window when it is the first. A
    /// failure that withdrew a recovery continues the outage the target was told of.
    func admit(_ delivery: PendingDelivery, of subscription: Subscription,
               record: (NotificationOutbox.Admission) -> Void) {
        let group = group(of: subscription)
        let admission = outbox.admit(delivery, to: group)
        if case .withdrew(let recovery) = admission { watches[delivery.key]?.resumeOutage(toldBy: recovery) }
        record(admission)
        let logged = !subscription.isPage
        let target = subscription.target
        switch admission {
        case .joined(let joined, let replaced, let opened):
            if logged {
                log.record(NotificationLog.Entry(joined.notification, target: target.name, outcome: .waiting), for: joined.id)
                if let replaced {
                    log.settle(replaced, as: .dropped("replaced before it went out by a newer notification of the same entry"))
                }
            }
            if opened { openWindow(group) }
        case .absorbed:
            if logged {
                log.record(NotificationLog.Entry(delivery.notification, target: target.name,
                                                 outcome: .dropped("the failure waiting to go out says it is still down")))
            }
        case .withdrew(let recovery):
            if logged {
                log.settle(recovery.id, as: .dropped("down again before it went out: the target was last told it is down"))
                log.record(NotificationLog.Entry(delivery.notification, target: target.name,
                                                 outcome: .dropped("the target was last told it is down, and its recovery withdrawn")))
            }
        case .dropped:
            report(.dropped(overLimit(of: target)), of: [delivery.notification], message: delivery.notification.message,
                   to: target)
            if logged {
                log.record(NotificationLog.Entry(delivery.notification, target: target.name,
                                                 outcome: .dropped(overLimit(of: target))))
            }
        }
    }

    /// Takes up what an earlier run (or the notifier before this one) left undone, in the order it was decided,
    /// by the outbox's rules, in windows opened now: what a target hanging for long left behind
    /// shrinks to what is still owed. A delivery an earlier run left that is older than the
    /// horizon is dropped rather than told late, unless the target's last word would stay false
    /// without it: the failure of an outage still open (a full disk may hold one for hours), or
    /// the recovery of a failure the target was told. The recovery of a failure dropped here is
    /// dropped with it: the target never heard of that outage. What the notifier before this one
    /// `carried` goes however old: an edit of the deck file changes nothing of what is owed. The
    /// page's are never in the ledger.
    func resume(_ left: [PendingDelivery], carried: Set<PendingDelivery.ID>) {
        let oldest = now().addingTimeInterval(-(limits.horizon / .seconds(1)))
        let late = "older than the \(limits.horizon.lengthText) a notification may wait across a restart"
        var done: [PendingDelivery.ID] = []
        /// The outages (by entry, when they began) whose failure was dropped.
        var untold: [String: Date] = [:]
        for delivery in left {
            guard let subscription = subscriptionsByKey[delivery.key] else { continue }
            let notification = delivery.notification
            let why: String? = if notification.event == .recovery {
                untold[delivery.key] == notification.downSince
                    ? "its failure, \(late), was dropped: the target never heard of the outage"
                    : nil
            } else if notification.at >= oldest || carried.contains(delivery.id)
                        || watches[delivery.key]?.downSince == notification.downSince {
                nil
            } else {
                "decided at \(notification.at), \(late)"
            }
            if let why {
                if notification.event == .failure { untold[delivery.key] = notification.downSince }
                done.append(delivery.id)
                report(.dropped(why), of: [notification], message: notification.message, to: subscription.target)
                if !subscription.isPage {
                    log.record(NotificationLog.Entry(notification, target: subscription.target.name, outcome: .dropped(why)))
                }
                continue
            }
            if notification.event == .failure { untold[delivery.key] = nil }
            admit(delivery, of: subscription) { admission in
                guard !subscription.isPage else { return }
                switch admission {
                case .joined(let joined, let replaced?, _):
                    ledger?.keep(watches[delivery.key], for: delivery.key, delivering: joined, replacing: replaced)
                case .joined:
                    break
                case .withdrew(let recovery):
                    ledger?.keep(watches[delivery.key], for: delivery.key, delivering: nil, replacing: recovery.id)
                    done.append(delivery.id)
                case .absorbed, .dropped:
                    done.append(delivery.id)
                }
            }
        }
        ledger?.finished(done)
    }

    /// Ends `group`'s window after its length on the notifier's clock; a window of zero ends now.
    private func openWindow(_ group: NotificationOutbox.Group) {
        guard group.window > .zero else {
            windowEnded(group)
            return
        }
        windows[group] = Self.task(after: group.window, on: clock) { [weak self] in await self?.windowEnded(group) }
    }

    /// Runs `body` once `delay` has passed on `clock`, counted from now, however late the task starts.
    private static func task<C: Clock<Duration>>(after delay: Duration, on clock: C,
                                                 _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let deadline = clock.now.advanced(by: delay)
        return Task {
            guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
            await body()
        }
    }

    private func windowEnded(_ group: NotificationOutbox.Group) {
        windows[group] = nil
        if let message = outbox.windowEnded(group, ifKept: isKept) { send(message) }
    }

    /// Whether the ledger has kept every one of `deliveries`: a message goes out only then, so
    /// that a run killed after it neither loses it nor decides and tells it again. While it has
    /// not (its write fails), their group goes on collecting and is tried again after each of
    /// ``Limits/ledgerRetryDelays``, for as long as that takes. The page's are never in the ledger.
    private func isKept(_ deliveries: [PendingDelivery]) -> Bool {
        guard let ledger, let subscription = subscriptionsByKey[deliveries[0].key], !subscription.isPage,
              !ledger.hasKept(deliveries.map(\.id)) else { return true }
        awaitingLedger.insert(group(of: subscription))
        if ledgerRetry == nil {
            ledgerRetry = Self.task(after: ledgerRetryDelay, on: clock) { [weak self] in await self?.retryAwaitingLedger() }
        }
        return false
    }

    /// Sends each message held back for the ledger that it has kept by now; waits longer before
    /// the next try when some still is not.
    private func retryAwaitingLedger() {
        ledgerRetry = nil
        let groups = awaitingLedger
        awaitingLedger = []
        ledgerRetryDelay = min(ledgerRetryDelay * 2, limits.ledgerRetryDelays.upperBound)
        for group in groups {
            if let message = outbox.message(of: group, ifKept: isKept) { send(message) }
        }
        if awaitingLedger.isEmpty { ledgerRetryDelay = limits.ledgerRetryDelays.lowerBound }
    }

    private func overLimit(of target: any NotificationTarget) -> String {
        "\(target.name) already has the most notifications owed that a target may have (\(limits.owedPerTarget))"
    }

    /// Delivers `message` (which the ledger has kept) in a task of its own, alone as it was
    /// decided or gathered, under the ledger's claim of its deliveries (those another notifier
    /// claimed are left to it), then forgets every delivery it carried in the ledger and sends
    /// what collected behind it. A stop before
    /// they are forgotten (SIGTERM while a webhook waits to retry) leaves them to the next run,
    /// which sends them then. The one window that repeats a notification: the process killed
    /// (`kill -9`, or a stop that waited ``finishDeliveries(within:)`` in vain for a slow target)
    /// after its claim and before the ledger's write after the target's answer.
    private func send(_ message: NotificationOutbox.Message) {
        guard let subscription = subscriptionsByKey[message.deliveries[0].key] else { return }
        let target = subscription.target
        let ledger = subscription.isPage ? nil : ledger
        let ids = message.deliveries.map(\.id)
        let notifications = message.deliveries.map { delivery in
            var notification = delivery.notification
            notification.id = delivery.id.uuidString.lowercased()
            return notification
        }
        let (at, clock, delays) = (now(), clock, limits.ledgerRetryDelays)
        sending.formUnion(ids)
        Task { [weak self] in
            let claimed = await Self.claim(ids, in: ledger, retryingAfter: delays, on: clock)
            let mine = zip(ids, notifications).filter { claimed.contains($0.0) }.map(\.1)
            let gathered = mine.count > 1 ? GatheredNotification(mine, at: at) : nil
            var outcome = Delivery.Outcome.sent
            do {
                if let gathered { try await target.deliver(gathered) } else if let alone = mine.first { try await target.deliver(alone) }
            } catch {
                outcome = .failed("\(error)")
            }
            ledger?.finished(ids.filter(claimed.contains))
            await self?.delivered(message, claimed: claimed, to: subscription, told: gathered?.message ?? mine.first?.message, outcome)
        }
    }

    /// `ids` as `ledger` claims them, tried again after each of `delays` (doubling) while the
    /// claim cannot be written; all of them without a ledger (the page's).
    private static func claim(_ ids: [PendingDelivery.ID], in ledger: (any NotificationLedger)?,
                              retryingAfter delays: ClosedRange<Duration>, on clock: any Clock<Duration>) async -> Set<PendingDelivery.ID> {
        guard let ledger else { return Set(ids) }
        var delay = delays.lowerBound
        while true {
            if let claimed = ledger.claim(ids) { return claimed }
            guard (try? await clock.sleep(for: delay)) != nil else { return [] }
            delay = min(delay * 2, delays.upperBound)
        }
    }

    /// Settles `message`: its deliveries `claimed` as the target's answer says, the others as
    /// left to the notifier that claimed them.
    private func delivered(_ message: NotificationOutbox.Message, claimed: Set<PendingDelivery.ID>, to subscription: Subscription,
                           told: String?, _ outcome: Delivery.Outcome) {
        sending.subtract(message.deliveries.map(\.id))
        if let next = outbox.finished(message.group, ifKept: isKept) { send(next) }
        let sent = message.deliveries.filter { claimed.contains($0.id) }
        if let told { report(outcome, of: sent.map(\.notification), message: told, to: subscription.target) }
        guard !subscription.isPage else { return }
        let logged: NotificationLog.Outcome = switch outcome {
        case .sent: sent.count == 1 ? .sent : .gathered(others: sent.count - 1)
        case .failed(let why): .failed(why)
        case .dropped(let why): .dropped(why)
        }
        for delivery in message.deliveries {
            log.settle(delivery.id, as: claimed.contains(delivery.id) ? logged : .dropped(Self.claimedElsewhere))
        }
    }

    static let claimedElsewhere = "another notifier claimed it in the ledger"

    private func report(_ outcome: Delivery.Outcome, of notifications: [DeckNotification], message: String,
                        to target: any NotificationTarget) {
        let done = Delivery(notifications: notifications, message: message, target: target.name, outcome: outcome)
        deliveries.forEach { $0(done) }
    }
}
