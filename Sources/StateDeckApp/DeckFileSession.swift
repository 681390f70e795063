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
/// history. An edit with problems is reported (log and toast) and the running deck stays. The
/// server's notifier follows each deck served, its panels' `notify:` entries included; outages
/// and deliveries under way carry over from one deck to the next. Unless the file turns it off,
/// the deck ends with StateDeck's own panel, which shows how the notifications fare.
public actor DeckFileSession {
    public let path: String
    private var file: DeckFile
    private var panelFileWatch: Task<Void, Never>?
    private let statedeckPanel: StateDeckPanel
    /// The ping keys of the heartbeat panels whose file sets none.
    private var pingKeys: PingKeys
    private let logger = Logger(label: "statedeck.config")

    /// A session of `file`, read from `path`, its heartbeats' keys kept in `pingKeys`; StateDeck's
    /// own panel reads the server `server` holds once it serves.
    public init(file: DeckFile, path: String, pingKeys: PingKeys, server: Locked<DeckServer?>) {
        self.file = file
        self.path = path
        self.pingKeys = pingKeys
        statedeckPanel = StateDeckPanel(server: server)
    }

    /// Makes and keeps the ping keys the file's heartbeats lack, before the first deck is made.
    public func keepPingKeys() throws(PingKeys.Failure) {
        _ = try pingKeys.keys(for: file.panelsWithoutPingKeys)
    }

    /// The deck to serve first.
    public func makeDeck() -> Deck {
        makeDeck(of: file)
    }

    /// The deck of `file`; StateDeck's own panel counts notifications from the first deck with
    /// `notify:` entries on. A key that cannot be kept holds for the run, and the log says so.
    private func makeDeck(of file: DeckFile, memories: [String: PanelMemory] = [:]) -> Deck {
        if file.panels.contains(where: { !$0.settings.notify.entries.isEmpty }) { statedeckPanel.countNotifications() }
        do {
            _ = try pingKeys.keys(for: file.panelsWithoutPingKeys)
        } catch {
            logger.error("\(error.description); the new ping keys hold until StateDeck stops")
        }
        return file.makeDeck(memories: memories, pingKeys: pingKeys.keys,
                             appending: file.statedeckPanel ? [statedeckPanel.makePanel().group(StateDeckPanel.group)] : [])
    }

    /// Counts a delivery to a `notify:` target on StateDeck's own panel: the server's
    /// `onNotificationDelivery`.
    public nonisolated func count(_ delivery: Notifier.Delivery) {
        statedeckPanel.count(delivery)
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
        // By id: a deck of 100,000 panels compares each once, not with every other.
        let before = Dictionary(file.panels.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let unchanged = Set(edited.panels.filter { before[$0.id] == $0 }.map(\.id))
        let kept = edited.statedeckPanel && file.statedeckPanel ? unchanged.union([StateDeckPanel.id]) : unchanged
        let deck = makeDeck(of: edited, memories: await server.deck.memories(of: kept))
        file = edited
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
