import FoundationEssentials
import Locking
import Logging
import StateDeck
import StateDeckHistory
import StateDeckPostgres
import StateDeckServer
import StateDeckSQLite

/// One run of StateDeck in the simulated world, wired as the app wires it: a deck server (its
/// runner, notifier and mirror) over a history store, every clock the world's. Nothing is bound:
/// the simulator reads the store as the routes do.
@MainActor
final class SimulatedProcess {
    /// Where the history is kept.
    enum Store: Sendable {
        case sqlite(folder: String)
        case postgres(url: String)
    }

    let server: DeckServer
    let store: any KeptHistoryStore
    let faults: Faults
    private let world: SimulatedWorld
    private let number: Int
    /// A change the deck decided: its panel, the health, the maintenance window that covers it
    /// (by id), the wall time, and its place among the world's events.
    typealias Heard = (panel: Int, health: Health, window: String?, at: Date, order: Int)

    /// The deck's changes of health and of maintenance, in order, for the model.
    let heard: Locked<[Heard]>

    /// The server's log goes nowhere: the checker reads what happened from the store.
    private static let silent = Logger(label: "statedeck-sim") { _ in SwiftLogNoOpLogHandler() }

    /// How often each panel loads.
    static let refresh = Duration.seconds(300)

    /// Starts process `number` with the deck `file` declares, on the history `store` keeps.
    init(number: Int, world: SimulatedWorld, file: SimulatedDeckFile, store: Store, faults: Faults,
         heard: Locked<[Heard]>) async throws {
        self.world = world
        self.number = number
        self.faults = faults
        self.heard = heard
        world.liveProcess.withLock { $0 = number }
        var keeping = HistoryKeeper.Configuration()
        keeping.clock = HistoryClock(wall: { world.wall }, running: { world.elapsed })
        keeping.startsWriter = false
        keeping.database = { faults.applied(to: $0) }
        switch store {
        case .sqlite(let folder):
            var configuration = SQLiteHistoryStore.Configuration()
            configuration.keeping = keeping
            self.store = try SQLiteHistoryStore(folder: folder, configuration: configuration)
        case .postgres(let url):
            var configuration = PostgresHistoryStore.Configuration()
            keeping.closeLimit = configuration.keeping.closeLimit
            configuration.keeping = keeping
            self.store = try PostgresHistoryStore(url: url, configuration: configuration)
        }
        let deck = Self.makeDeck(file, world: world, number: number)
        await Self.observe(deck, world: world, into: heard)
        server = try await DeckServer(deck: deck, configuration: ServerConfiguration(), history: self.store,
                                      notificationLedger: self.store, logger: Self.silent)
        await deck.start()
    }

    /// The deck `file` declares.
    private static func makeDeck(_ file: SimulatedDeckFile, world: SimulatedWorld, number: Int,
                                 memories: [String: PanelMemory] = [:]) -> Deck {
        var configuration = Deck.Configuration(clock: world.clock, now: { world.wall }, random: { 0.5 })
        configuration.flapping = nil
        let groups = [PanelGroup("even", title: "Even"), PanelGroup("odd", title: "Odd")]
        let panels = file.present.sorted().map { index in
            var panel = Panel("p\(index)", title: file.title(of: index)) { try world.load(index) }
                .refresh(every: Self.refresh)
                .retry(.none)
                .minimumLoadingTime(.zero)
            for target in file.targets {
                panel = panel.notify(SimulatedTarget(target, world: world, process: number), .failures(1))
            }
            if file.grouped { panel = panel.group(groups[index % 2]) }
            if file.dependent, index != 0, file.present.contains(0) { panel = panel.depends(on: "p0") }
            return panel
        }
        return Deck("Simulated deck", configuration: configuration, panels: panels, memories: memories)
    }

    private static func observe(_ deck: Deck, world: SimulatedWorld, into heard: Locked<[Heard]>) async {
        await deck.observe { [heard] event in
            guard case .change(let change) = event, change.cause != .debug,
                  let index = Int(change.panel.dropFirst()) else { return }
            heard.withLock { $0.append((index, change.health, change.maintenance?.id, change.at, world.nextEvent())) }
        }
    }

    /// The deck file edited to say what `file` says: the panels that stay keep what they showed,
    /// as a reload of the file keeps them.
    func reload(_ file: SimulatedDeckFile) async {
        let kept = Set(file.present.map { "p\($0)" }).intersection(server.deck.panelIds)
        let deck = Self.makeDeck(file, world: world, number: number, memories: await server.deck.memories(of: kept))
        await Self.observe(deck, world: world, into: heard)
        await server.replaceDeck(with: deck)
    }

    /// Starts a maintenance window by hand over panel `panel` for `duration`, as the page's
    /// Maintenance dialog does.
    func startMaintenance(of panel: Int, for duration: Duration) async {
        _ = try? await server.deck.startMaintenance(panels: ["p\(panel)"], groups: [], for: duration, reason: "Simulated work")
    }

    /// Saves what waits; whether it was committed.
    func save() -> Bool {
        store.flush()
        return store.trouble == nil
    }

    /// Ends the process: cleanly (the server stops and the store closes, saving), or killed
    /// (nothing more is committed, the store's files are let go as the kernel lets them go).
    func end(killed: Bool) async {
        if killed { faults.killed.withLock { $0 = true } }
        world.liveProcess.withLock { $0 = -1 }
        await server.stop()
        store.close()
        // Last: what a hanging target held ends after the store, which keeps nothing more of it.
        world.processEnded(number)
    }
}
