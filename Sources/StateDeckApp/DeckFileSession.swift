import FoundationEssentials
import Logging
import StateDeck
import StateDeckHistory
import StateDeckServer
import StateDeckSources

/// Serves a deck file: the deck it declares, the files its panels watch, and a reload each time
/// the deck file itself is edited.
///
/// A valid edit replaces the served deck; panels whose declaration did not change keep their
/// history. An edit with problems is reported (log and toast) and the running deck stays. The
/// server's notifier follows each deck served, its panels' `notify:` entries included; outages
/// carry over from one deck to the next.
public actor DeckFileSession {
    public let path: String
    private var file: DeckFile
    private var panelFileWatch: Task<Void, Never>?
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
