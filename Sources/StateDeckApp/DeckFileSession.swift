import FoundationEssentials
import Locking
import Logging
import StateDeck
import StateDeckNotifications
import StateDeckServer
import StateDeckSources

/// Serves a deck file: the deck it declares, the files its panels watch, and a reload each time
/// the deck file itself is edited.
///
/// A valid edit replaces the served deck; panels whose declaration did not change keep their
/// history. An edit with problems is reported (log and toast) and the running deck stays.
///
/// Its panels' `notify:` entries are followed by a notifier, replaced with each edit; outages
/// and deliveries under way carry over from one to the next, and across restarts through the
/// history store. Unless the file turns it off, the deck ends with StateDeck's own panel, which
/// shows how the notifications fare.
public actor DeckFileSession {
    public let path: String
    private var file: DeckFile
    private var panelFileWatch: Task<Void, Never>?
    private var notifier: Notifier?
    private let ledger: any NotificationLedger
    private let statedeckPanel: StateDeckPanel
    private let logger = Logger(label: "statedeck.config")

    /// A session of `file`, read from `path`. Outages and deliveries are kept in `ledger` (the
    /// history store), or in memory without one; StateDeck's own panel reads the server `server`
    /// holds once it serves.
    public init(file: DeckFile, path: String, ledger: (any NotificationLedger)?, server: Locked<DeckServer?>) {
        self.file = file
        self.path = path
        self.ledger = ledger ?? OutageTable()
        statedeckPanel = StateDeckPanel(server: server)
    }

    /// The deck to serve first.
    public func makeDeck() -> Deck {
        makeDeck(of: file)
    }

    private func makeDeck(of file: DeckFile, memories: [String: PanelMemory] = [:]) -> Deck {
        file.makeDeck(memories: memories, appending: file.statedeckPanel ? [statedeckPanel.makePanel().group(StateDeckPanel.group)] : [])
    }

    /// Tells the outages of `deck`'s panels as the file's `notify:` entries say, from now on; call it
    /// before the deck starts, so no first load goes unheard. Deliveries are counted in `server`'s
    /// metrics and on StateDeck's own panel; one that fails is logged and shown as a toast.
    public func notify(_ deck: Deck, server: DeckServer) async {
        await notifier?.stop()
        let subscriptions = file.notifySubscriptions()
        let notifier = Notifier(subscriptions, ledger: ledger)
        if !subscriptions.isEmpty { statedeckPanel.countNotifications() }
        await notifier.onDelivery { [logger, statedeckPanel] delivery in
            server.countNotification(delivered: delivery.failure == nil)
            statedeckPanel.count(delivery, on: server.deck)
            guard let failure = delivery.failure else { return }
            logger.error("notification \(delivery.notification.event.rawValue) of \(delivery.notification.panel) not sent: \(failure)")
            Task { await server.deck.announce("A notification could not be sent: \(failure)", style: .error) }
        }
        await notifier.follow(deck)
        self.notifier = notifier
    }

    /// Stops telling, after waiting `limit` at most for deliveries under way (the process stops):
    /// what is still under way then is delivered by the next run.
    public func stopNotifying(within limit: Duration) async {
        await notifier?.finishDeliveries(within: limit)
        await notifier?.stop()
    }

    /// Watches the deck file and the panels' files until the calling task is cancelled.
    public func run(serving server: DeckServer) async {
        watchPanelFiles(of: server.deck)
        for await _ in FileWatcher(path: path).changes() {
            await reload(into: server)
        }
        panelFileWatch?.cancel()
    }

    private func reload(into server: DeckServer) async {
        let edited: DeckFile
        do {
            edited = try DeckFile.load(path: path)
        } catch {
            logger.error("\(error.description)\nThe deck keeps running as it was.")
            await server.deck.announce("\(fileName) has errors; the deck keeps running as it was", style: .error)
            return
        }
        guard edited != file else { return }
        let unchanged = Set(edited.panels.filter(file.panels.contains).map(\.id))
        let kept = edited.statedeckPanel && file.statedeckPanel ? unchanged.union([StateDeckPanel.id]) : unchanged
        let deck = makeDeck(of: edited, memories: await server.deck.memories(of: kept))
        file = edited
        await notify(deck, server: server)
        await server.replaceDeck(with: deck)
        watchPanelFiles(of: deck)
        logger.info("reloaded \(path)")
        await deck.announce("Reloaded \(fileName)", style: .info)
    }

    private func watchPanelFiles(of deck: Deck) {
        panelFileWatch?.cancel()
        panelFileWatch = Task { [file] in await file.watchFiles(reloading: deck) }
    }

    private var fileName: String {
        URL(fileURLWithPath: path).lastPathComponent
    }
}

/// Outages in memory, for a deck served without a history (`--data none`): carried from one
/// notifier to the next as the deck file is edited. Nothing outlives the process, so no run is
/// ever left a delivery to finish, and one under way needs no record: its task carries it.
final class OutageTable: NotificationLedger {
    private let table = Locked<[String: OutageWatch]>([:])

    func outages() -> [String: OutageWatch] { table.current }

    func keep(_ watch: OutageWatch?, for key: String, delivering delivery: PendingDelivery?) {
        table.withLock { $0[key] = watch }
    }

    func finished(_ delivery: PendingDelivery.ID) {}

    func takeUndelivered() -> [PendingDelivery] { [] }
}
