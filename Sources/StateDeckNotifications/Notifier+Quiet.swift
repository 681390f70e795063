import FoundationEssentials
import StateDeck

/// How a notifier keeps quiet about what people already know or asked not to hear.
///
/// | a notification decided while … | failure | reminder | recovery | in the log |
/// | --- | --- | --- | --- | --- |
/// | a maintenance window covers the panel | not sent; told as new when the window ends with the panel still down | not sent | not sent when its failure was not; one of an outage told before the window is told when it ends | `silent: maintenance 'reason'` |
/// | the panel flaps | held: its outage counts as not told | held | one of an outage told before is told when the flapping ends | `held: flapping` |
/// | a panel it depends on is down | held: its outage counts as not told | held | told, unless a window kept its failure quiet (and ended meanwhile): that outage ends untold | `held: dependency Postgres down`, once an outage |
/// | no window, after one that kept its failure quiet ended while no notifier followed the deck (a restart or a failover between) | told as new at the first failed load heard | - | not told: the outage ended untold | as sent |
///
/// When the quiet ends (the window ends, the panel has been steady for the flapping rule's window,
/// what it depends on is no longer down) a recovery waiting is told, a failure not sent for
/// maintenance is told as new, and a held failure is told if its rule still holds; after a
/// dependency's outage the rule counts afresh (failed loads, time down), so a dependent is told
/// only if its outage outlives its dependency's by the rule. A panel that begins flapping is told once, "API is flapping: 6 changes in
/// 10 min" (not sent during a window). A failure of a panel others depend on names those failing
/// with it: "Postgres is down: Timed out; 12 panels that depend on it are failing too".
extension Notifier {
    /// Why a panel's notifications are not sent now.
    enum Quiet: Equatable {
        case maintenance(MaintenanceMark)
        case flapping
        /// The panel depends on this one, which is down.
        case dependency(String)

        /// Until when a recovery waits: "until maintenance 'Upgrade' ends".
        var ending: String {
            switch self {
            case .maintenance(let mark): "until maintenance '\(mark.reason)' ends"
            case .flapping: "until the panel is steady"
            case .dependency: "until its dependency is up"
            }
        }
    }

    /// `notification`, decided for `subscription` under `quiet`, with `watch` as the decision
    /// left it and `before` as it was: what is still to send of it, after changing `watch` as the
    /// table says.
    func hush(_ notification: DeckNotification, of subscription: Subscription, under quiet: Quiet,
              watch: inout OutageWatch, before: OutageWatch) -> DeckNotification? {
        var outcome = logged(quiet)
        switch (quiet, notification.event) {
        case (.dependency, .recovery) where !before.silenced:
            return notification
        case (.maintenance, .failure):
            watch.silenced = true
        case (.flapping, .failure), (.dependency, .failure):
            watch.toldAt = nil
            // A flapping panel's failures come and go with it; its flapping was told instead.
            guard !watch.held else { return nil }
            watch.held = true
            if quiet == .flapping { return nil }
        case (_, .recovery) where !before.silenced:
            watch = before
            watch.recoveredAt = notification.at
            outcome = .held(quiet.ending)
        // A test and an incident are sent by a person's request, never decided here.
        case (_, .recovery), (_, .reminder), (_, .flapping), (_, .test), (_, .incident):
            break
        }
        if !subscription.isPage {
            log.record(NotificationLog.Entry(notification, target: subscription.target.name, outcome: outcome))
        }
        return nil
    }

    private func logged(_ quiet: Quiet) -> NotificationLog.Outcome {
        switch quiet {
        case .maintenance(let mark): .silent("maintenance '\(mark.reason)'")
        case .flapping: .held("flapping")
        case .dependency(let panel): .held("dependency \(title(of: panel)) down")
        }
    }

    /// Tells what panel `panel`'s quiet held back, now that it may have ended (the table's last
    /// rules); nothing while something else still quiets it. A held outage that outlives what the
    /// panel depends on (`afterItsDependency`) counts as beginning now: its rule must hold again,
    /// so that a dependent whose next check succeeds is never told.
    func reconsider(_ panel: String, at date: Date, afterItsDependency: Bool = false) {
        guard quiet.quiet(for: panel) == nil else { return }
        for subscription in subscriptions(of: panel) {
            guard var watch = watches[subscription.key] else { continue }
            var told: DeckNotification?
            if let upSince = watch.recoveredAt, let downSince = watch.downSince {
                watch = OutageWatch()
                told = recovery(of: subscription, downSince: downSince, upSince: upSince)
            } else if watch.silenced {
                watch.unsilence(at: date)
                told = notification(.failure, of: subscription, watch: watch, at: date)
            } else if watch.held {
                watch.held = false
                if afterItsDependency {
                    watch.failures = 0
                    watch.downSince = date
                }
                told = watch.due(at: date, rule: subscription.rule).map { notification($0, of: subscription, watch: watch, at: date) }
            } else {
                continue
            }
            keep(watch, of: subscription, sending: told)
            if let due = watch.nextDue(rule: subscription.rule) { wake(at: due) }
        }
    }

    /// `change`, a result of a panel quiet no more whose failure a window kept quiet, the window
    /// having ended while no notifier here followed the deck (the table's last rule): what to tell
    /// of it, after changing `watch`. A failed load is the outage outlasting the window, told as
    /// new; a good result ended it untold.
    func afterUnheardWindow(_ change: PanelChange, of subscription: Subscription, watch: inout OutageWatch) -> DeckNotification? {
        guard change.health == .down else {
            watch = OutageWatch()
            return nil
        }
        guard let summary = change.state.errorSummary else { return nil }
        watch.failures += 1
        watch.error = summary
        watch.unsilence(at: change.at)
        return notification(.failure, of: subscription, watch: watch, at: change.at)
    }

    /// Tells once that `panel` began flapping at `date`, unless a window quiets it.
    func tellFlapping(_ panel: String, at date: Date) {
        guard let rule = flappingRule else { return }
        let told = DeckNotification.flapping(panel: panel, title: title(of: panel), group: panels[panel]?.group,
                                             changes: rule.changes + 1, within: rule.within, at: date)
        for subscription in subscriptions(of: panel) {
            var watch = watches[subscription.key] ?? OutageWatch()
            var sent: DeckNotification? = told
            if let quiet = quiet.quiet(for: panel), case .maintenance = quiet {
                let before = watch
                sent = hush(told, of: subscription, under: quiet, watch: &watch, before: before)
            }
            keep(watch, of: subscription, sending: sent)
        }
    }

    /// `notification`, a failure of a panel others depend on, naming those failing with it.
    func namingDependents(_ notification: DeckNotification) -> DeckNotification {
        guard notification.event == .failure else { return notification }
        return notification.naming(failingDependents: quiet.failingDependents(of: notification.panel))
    }

    private func title(of panel: String) -> String {
        panels[panel]?.title ?? panel
    }
}
