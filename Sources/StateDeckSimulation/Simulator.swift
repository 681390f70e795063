import ConcurrencyExtras
import FoundationEssentials
import Locking
import Postgres
import StateDeck
import StateDeckHistory

/// Runs a ``Scenario`` against the real deck, notifier and history store, in a world whose clocks
/// and chances it alone drives, and compares every number a user can read with a ``TruthModel``.
///
/// Everything runs on the main thread's serial executor (``withMainSerialExecutor``) and a test
/// clock, and the history saves only when told: nothing outside the seed decides an order, so a
/// seed replays step for step.
@MainActor
public final class Simulator {
    public struct Configuration: Sendable {
        /// Where each run keeps its history: a new SQLite folder, or a PostgreSQL database
        /// emptied first.
        public enum Store: Sendable {
            case sqlite
            case postgres(url: String)
        }

        public var store = Store.sqlite
        /// How often the history commits (the writer's interval, stretched for speed; a kill
        /// loses what came after the last commit, and the model knows when that was).
        public var saveInterval = Duration.seconds(60)
        /// Breaks the model on purpose (its up time counted as down), to show the checker fails.
        public var breaksModel = false

        public init() {}
    }

    private let scenario: Scenario
    private let configuration: Configuration
    private let world: SimulatedWorld
    private var model: TruthModel
    private var process: SimulatedProcess?
    private var processCount = 0
    private let faults = Faults()
    private let heard = Locked<[SimulatedProcess.Heard]>([])
    /// What the deck file says now.
    private var file: SimulatedDeckFile
    private var present: Set<Int> { file.present }
    private var divergences: [Divergence] = []
    private var stepIndex = 0
    private var nextSave: Duration
    private var random: SeededRandom
    /// The wall time the current stretch without a jump, a start or an edit of the deck began.
    private var steadySince: Int64
    /// Each stretch a maintenance window covered a panel, and each wall-clock jump back: what
    /// the notifications' check holds a delivery against.
    private var quiet: [Checker.Quiet] = []
    private var setBack: [ClosedRange<Int64>] = []
    /// Each removal of a panel or of a notify target, for the notifications' check.
    private var removals: [Checker.Removal] = []
    /// The removals no commit has taken yet (their places in `removals`): a kill loses them.
    private var uncommittedRemovals: [Int] = []
    /// Where the disk filled, since when no commit took what the ledger wrote (until a save
    /// commits, or a kill makes it ``unkept``).
    private var uncommittedSince: Int?
    /// The stretches of the world's events in which the ledger's writes were lost with a kill.
    private var unkept: [Range<Int>] = []
    private let folder: String

    public init(_ scenario: Scenario, configuration: Configuration = Configuration()) {
        self.scenario = scenario
        self.configuration = configuration
        world = SimulatedWorld(panelCount: scenario.panelCount)
        let start = SimulatedWorld.origin.millisecondsSince1970
        model = TruthModel(panelCount: scenario.panelCount, wall: start)
        file = SimulatedDeckFile(present: Set(0..<scenario.panelCount))
        nextSave = configuration.saveInterval
        random = SeededRandom(seed: scenario.seed ^ 0xC0FFEE)
        steadySince = start
        // In memory where the machine has a tmpfs: the simulated disk's speed is not what is measured.
        let parent = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : FileManager.default.temporaryDirectory.path
        folder = "\(parent)/statedeck-sim-\(scenario.seed)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Runs every step and returns what diverged (empty when every number held).
    public func run() async throws -> [Divergence] {
        if case .postgres(let url) = configuration.store {
            // Each world starts with an empty history.
            try PostgresConnection(url).execute("DROP SCHEMA IF EXISTS statedeck CASCADE")
        }
        try await withMainSerialExecutor { @MainActor in
            try await start()
            for (index, step) in scenario.steps.enumerated() {
                stepIndex = index
                try await perform(step)
            }
            await process?.end(killed: false)
            process = nil
        }
        try? FileManager.default.removeItem(atPath: folder)
        return divergences
    }

    /// What the notify target received (or refused), every process's, in order.
    var received: [SimulatedTarget.Received] { world.received.current }

    private func start() async throws {
        processCount += 1
        let store: SimulatedProcess.Store = switch configuration.store {
        case .sqlite: .sqlite(folder: folder)
        case .postgres(let url): .postgres(url: url)
        }
        faults.killed.withLock { $0 = false }
        process = nil
        process = try await SimulatedProcess(number: processCount, world: world, file: file, store: store,
                                             faults: faults, heard: heard)
        steadySince = model.wall
        await settle()
    }

    private func perform(_ step: SimulationStep) async throws {
        switch step {
        case .pass(let duration):
            try await pass(duration)
        case .source(let panel, let up):
            world.sourcesUp.withLock { $0[panel] = up }
        case .kill:
            takeHeard()
            await process?.end(killed: true)
            endQuiet { _ in true }
            killed()
            try await start()
        case .restart:
            let saved = save()
            await process?.end(killed: false)
            endQuiet { _ in true }
            if saved { model.opened() } else { killed() }
            try await start()
        case .jump(let duration):
            takeHeard()
            model.pass(to: wallNow)
            let takeoff = wallNow
            world.wallOffset.withLock { $0 += duration }
            model.jump(to: wallNow)
            if duration < .zero { setBack.append(wallNow...takeoff) }
            steadySince = wallNow
            // The writer reads the clocks every second: the jump is seen at once.
            save()
        case .remove(let panel) where present.contains(panel):
            await edit { $0.present.remove(panel) }
        case .add(let panel) where !present.contains(panel):
            await edit { $0.present.insert(panel) }
        case .remove, .add:
            // The deck file already says so: an edit that changes nothing.
            break
        case .rename(let panel):
            await edit { if $0.renamed.remove(panel) == nil { $0.renamed.insert(panel) } }
        case .regroup:
            await edit { $0.grouped.toggle() }
        case .dependencies:
            await edit { $0.dependent.toggle() }
        case .notify(let targets):
            await edit { $0.targets = targets }
        case .maintenance(let panel, let minutes):
            guard present.contains(panel) else { break }
            takeHeard()
            await process?.startMaintenance(of: panel, for: .seconds(minutes * 60))
            await settle()
        case .disk(let full):
            faults.diskFull.withLock { $0 = full }
            if full, uncommittedSince == nil { uncommittedSince = world.nextEvent() }
            // The writer tries every second: a disk that has room again is written at once.
            if !full { save() }
        case .target(let mood):
            world.setTarget(mood)
            // What a hanging target held is answered now, before the next step.
            await settle()
        case .check:
            takeHeard()
            model.pass(to: wallNow)
            check()
        }
    }

    /// The deck file is edited as `change` says, and reloaded: a panel removed counts nothing
    /// more, and its outages, like those of a notify target removed, are over.
    private func edit(_ change: (inout SimulatedDeckFile) -> Void) async {
        var edited = file
        change(&edited)
        takeHeard()
        model.pass(to: wallNow)
        let removed = present.subtracting(edited.present)
        endQuiet(removed.contains)
        for panel in removed {
            uncommitted(Checker.Removal(order: world.nextEvent(), panel: panel))
            model.remove(panel)
        }
        for panel in edited.present.subtracting(present) { model.add(panel) }
        for target in Set(file.targets).subtracting(edited.targets) {
            for panel in present.intersection(edited.present) {
                uncommitted(Checker.Removal(order: world.nextEvent(), panel: panel, target: SimulatedTarget.names[target]))
            }
        }
        file = edited
        for panel in present { model.rename(panel, to: file.title(of: panel)) }
        model.dependent = file.dependent
        model.followed()
        await process?.reload(file)
        steadySince = wallNow
        await settle()
        save()
    }

    /// Keeps `removal` for the notifications' check, as no commit has taken it yet.
    private func uncommitted(_ removal: Checker.Removal) {
        uncommittedRemovals.append(removals.count)
        removals.append(removal)
    }

    /// Time passes by `duration`, the history committing every ``Configuration/saveInterval``.
    private func pass(_ duration: Duration) async throws {
        let end = world.elapsed + duration
        while world.elapsed < end {
            let next = min(end, nextSave)
            await world.clock.advance(to: .init(offset: next))
            await settle()
            takeHeard()
            model.pass(to: wallNow)
            if world.elapsed >= nextSave {
                nextSave += configuration.saveInterval
                save()
            }
        }
    }

    /// Saves what waits, as the writer does every second; the model learns what was committed.
    /// Whether it was committed.
    @discardableResult
    private func save() -> Bool {
        takeHeard()
        model.pass(to: wallNow)
        guard process?.save() == true else { return false }
        model.committed()
        uncommittedRemovals = []
        if !faults.diskFull.current { uncommittedSince = nil }
        return true
    }

    /// The process ended without saving: what no commit took is lost, to the model and to the
    /// notifications' check (the history forgets a removed panel's outage at the next commit). A
    /// panel the deck file still lacks is forgotten again by the next process, uncommitted still.
    private func killed() {
        model.killed()
        if let since = uncommittedSince {
            let now = world.nextEvent()
            unkept.append(since..<now)
            uncommittedSince = faults.diskFull.current ? now : nil
        }
        // The history has what the commit found: each removal the deck file declares again is
        // undone, the latest first (a panel's removal after its target's restores the target's
        // outage only once the panel's is undone). Of a panel revived, the targets the deck file no
        // longer lists it forgets again, uncommitted as well.
        let lost = uncommittedRemovals.filter { declares(removals[$0]) }
        for index in lost.reversed() { removals[index].lostOrder = world.nextEvent() }
        uncommittedRemovals.removeAll { declares(removals[$0]) }
        var revived: Set<Int> = []
        for index in lost where removals[index].target == nil && revived.insert(removals[index].panel).inserted {
            for name in SimulatedTarget.names where !file.targets.contains(where: { SimulatedTarget.names[$0] == name }) {
                uncommittedRemovals.append(removals.count)
                removals.append(Checker.Removal(order: world.nextEvent(), panel: removals[index].panel, target: name))
            }
        }
    }

    /// Whether the deck file declares again what `removal` removed.
    private func declares(_ removal: Checker.Removal) -> Bool {
        present.contains(removal.panel)
            && removal.target.map { target in file.targets.contains { SimulatedTarget.names[$0] == target } } ?? true
    }

    /// Lets every task the last move of the clock woke run to its end.
    private func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }

    /// Hands the model every change of health the deck decided since the last call.
    private func takeHeard() {
        let taken = heard.withLock { heard in
            defer { heard = [] }
            return heard
        }
        for change in taken {
            if (change.window != nil) != model.panels[change.panel].maintenance {
                if change.window != nil {
                    quiet.append(Checker.Quiet(panel: change.panel, from: change.order, since: change.at.millisecondsSince1970))
                } else {
                    endQuiet(at: change.order) { $0 == change.panel }
                }
            }
            model.change(change.panel, to: change.health, window: change.window, at: change.at.millisecondsSince1970)
        }
    }

    /// The maintenance stretches still open of the panels `matching` end at `order` (now when nil).
    private func endQuiet(at order: Int? = nil, _ matching: (Int) -> Bool) {
        let order = order ?? world.nextEvent()
        for index in quiet.indices where quiet[index].to == .max && matching(quiet[index].panel) {
            quiet[index].to = order
        }
    }

    private var wallNow: Int64 { world.wall.millisecondsSince1970 }

    // MARK: Checks

    private func check() {
        guard let process else { return }
        let checker = Checker(model: model, store: process.store, now: wallNow, breaksModel: configuration.breaksModel)
        var found = checker.uptimes(of: present.sorted())
        if wallNow - steadySince > 2_000 {
            let instant = Int64.random(in: steadySince + 1...wallNow - 1, using: &random)
            found += checker.moment(at: instant, panels: present.sorted())
            let later = Int64.random(in: instant...wallNow, using: &random)
            found += checker.changes(from: instant, to: later, panels: present.sorted())
            let span = Int64.random(in: 3_600_000...3 * 86_400_000, using: &random)
            found += checker.range(of: present.sorted(), span: span, slots: Int.random(in: 1...40, using: &random), to: later)
        }
        found += Checker.notifications(world.received.current, removals: removals, unkept: unkept, quiet: quiet,
                                       setBack: setBack)
        for finding in found where !divergences.contains(where: { $0.finding == finding }) {
            divergences.append(Divergence(step: stepIndex, finding: finding))
        }
    }
}
