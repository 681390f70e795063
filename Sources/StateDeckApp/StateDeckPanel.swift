import Locking
import StateDeck
import StateDeckNotifications
import StateDeckServer

/// StateDeck's own panel, "StateDeck itself": where it serves, its open streams, memory and time
/// up and, on a deck with `notify:` entries, how its notifications fare. An error card while the
/// newest delivery to some target was given up, until that target delivers again.
///
/// Read in the process rather than by an http source asking the server's own `/api/state`, whose
/// first request would map libcurl and the TLS libraries it brings (5.6 MiB,
/// docs/PERFORMANCE-FINDINGS.md, finding d) to learn what the process knows.
public final class StateDeckPanel: Sendable {
    public static let id = "statedeck"
    /// Its group on a deck file's deck, drawn last.
    public static let group = PanelGroup("statedeck", title: "StateDeck")

    private let server: Locked<DeckServer?>
    private let started = ContinuousClock.now
    /// Nil on a deck without notify entries: nothing to tell about.
    private let notifications = Locked<NotificationTally?>(nil)

    /// The panel of the server `server` holds once it serves.
    public init(server: Locked<DeckServer?>) {
        self.server = server
    }

    /// The panel, refreshed every 15 s and whenever a notification target starts or stops failing.
    public func makePanel() -> Panel {
        Panel(Self.id, title: "StateDeck itself") { [self] in try load() }
            .refresh(every: .seconds(15))
    }

    /// Shows notification counts from now on (a deck with notify entries).
    func countNotifications() {
        notifications.withLock { $0 = $0 ?? NotificationTally() }
    }

    /// Counts `delivery` as it comes, and reloads the panel on the deck served when a target
    /// started or stopped failing.
    func count(_ delivery: Notifier.Delivery) {
        let changed = notifications.withLock { tally in
            var counted = tally ?? NotificationTally()
            defer { tally = counted }
            return counted.count(delivery)
        }
        guard changed, let deck = server.current?.deck else { return }
        Task { try? await deck.refresh(panel: Self.id) }
    }

    private func load() throws -> Info {
        guard let server = server.current else {
            throw PanelError(.unreachable, message: "StateDeck is not serving yet.")
        }
        let tally = notifications.current
        if let error = tally?.error { throw error }
        var info = server.health(upFor: started.duration(to: .now))
        if let tally { info.fields = (info.fields ?? []) + [tally.field] }
        return info
    }
}
