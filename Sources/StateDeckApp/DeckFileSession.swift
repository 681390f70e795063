import FoundationEssentials
import Locking
import Logging
import StateDeck
import StateDeckHistory
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
/// carry over from one to the next.
public actor DeckFileSession {
    public let path: String
    private var file: DeckFile
    private var panelFileWatch: Task<Void, Never>?
    private var notifier: Notifier?
    private let outages = OutageTable()
    private let logger = Logger(label: "statedeck.config")

    /// A session of `file`, read from `path`.
    public init(file: DeckFile, path: String) {
        self.file = file
        self.path = path
    }

    /// How long the deck file says to keep history.
    public var historyRetention: HistoryRetention {
        file.historyRetention
    }

    /// The deck to serve first.
    public func makeDeck() -> Deck {
        file.makeDeck()
    }

    /// Tells the outages of `deck`'s panels as the file's `notify:` entries say, from now on; call it
    /// before the deck starts, so no first load goes unheard. Deliveries are counted in `server`'s
    /// metrics; one that fails is logged and shown as a toast.
    public func notify(_ deck: Deck, server: DeckServer) async {
        await notifier?.stop()
        let notifier = Notifier(file.notifySubscriptions(), ledger: outages)
        await notifier.onDelivery { [logger] delivery in
            server.countNotification(delivered: delivery.failure == nil)
            guard let failure = delivery.failure else { return }
            logger.error("notification \(delivery.notification.event.rawValue) of \(delivery.notification.panel) not sent: \(failure)")
            Task { await deck.announce("A notification could not be sent: \(failure)", style: .error) }
        }
        await notifier.follow(deck)
        self.notifier = notifier
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
        let deck = edited.makeDeck(memories: await server.deck.memories(of: unchanged))
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

/// Outages in memory, carried from one notifier to the next as the deck file is edited.
final class OutageTable: NotificationLedger {
    private let table = Locked<[String: OutageWatch]>([:])

    func outages() -> [String: OutageWatch] { table.current }

    func keep(_ watch: OutageWatch?, for key: String) {
        table.withLock { $0[key] = watch }
    }
}
