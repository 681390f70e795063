import EventStream
import FoundationEssentials
import StateDeck

/// The page as a notification target: each notification decided for it goes to every open stream
/// as a `notification` event, for the page's desktop notifications.
struct PageAnnouncer: NotificationTarget {
    /// How deliveries to the page are told apart: they are not counted with the targets' in the
    /// metrics, and cannot fail.
    static let targetName = "page"

    let relay: any EventRelay

    var name: String { Self.targetName }

    func deliver(_ notification: DeckNotification) throws {
        try announce(notification)
    }

    /// A gathered message goes as its JSON, with `count` and `notifications`.
    func deliver(_ gathered: GatheredNotification) throws {
        try announce(gathered)
    }

    private func announce(_ told: some Encodable) throws {
        let data = try DeckJSON.makeEncoder().encode(told)
        relay.relay(event: "notification", data: String(decoding: data, as: UTF8.self), panel: nil)
    }
}
