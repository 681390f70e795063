import StateDeck
import StateDeckNotifications

/// How a deck's notifications fare since the start: deliveries sent, given up and dropped (never
/// sent: over a target's limit, or too old at start), and each target whose newest delivery was
/// given up, with why.
struct NotificationTally: Sendable {
    var sent = 0
    var failed = 0
    var dropped = 0
    /// Target name → the failure of its newest delivery; a target leaves once it delivers again.
    var failing: [String: String] = [:]

    /// Counts `delivery`; true when the targets failing changed.
    mutating func count(_ delivery: Notifier.Delivery) -> Bool {
        let before = failing
        let count = delivery.notifications.count
        switch delivery.outcome {
        case .sent:
            sent += count
            failing[delivery.target] = nil
        case .failed(let failure):
            failed += count
            failing[delivery.target] = failure.hasPrefix(delivery.target) ? failure : "\(delivery.target): \(failure)"
        case .dropped:
            dropped += count
        }
        return failing != before
    }

    private var counts: String { "\(sent) sent · \(failed) failed · \(dropped) dropped" }

    var field: Info.Field {
        Info.Field("Notifications", counts)
    }

    /// The error card while some target's newest delivery failed.
    var error: PanelError? {
        guard !failing.isEmpty else { return nil }
        let reasons = failing.keys.sorted().compactMap { failing[$0] }.joined(separator: "; ")
        return PanelError(.unknown, title: "Notifications are failing",
                          message: "Notifications are failing: \(reasons)",
                          recoverySuggestion: "Check the target; this clears when it delivers again.",
                          detail: "\(counts) since the start")
    }
}
