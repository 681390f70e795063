import FoundationEssentials
import StateDeck
import StateDeckNotifications

/// Outages and deliveries the ledger tests keep.
public enum LedgerSamples {
    /// An outage told once, at `date`.
    public static func toldOutage(at date: Date) -> OutageWatch {
        var watch = OutageWatch()
        _ = watch.failed(with: .init(kind: "timeout", title: "Timed out", message: "No answer"), at: date,
                         rule: NotifyRule(failures: 1))
        return watch
    }

    public static func delivery(_ event: DeckNotification.Event, key: String = "api#0", at date: Date) -> PendingDelivery {
        PendingDelivery(key: key, notification: DeckNotification(
            event: event, panel: "api", title: "API", group: "services", error: nil,
            downSince: date.addingTimeInterval(-60), at: date))
    }
}
