import Dispatch
import Locking
import Logging
import Postgres
import StateDeck
import StateDeckServer
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Servers sharing one deck through PostgreSQL. The one holding an advisory lock leads: it runs
/// the deck, and writes each event it makes, numbered, with the panels it changed. Every server
/// reads them back (`LISTEN`, and a read every second) into its replica and its pages' streams,
/// so a page may reconnect to any of them with `Last-Event-ID`.
///
/// Two threads per server: `cluster-feed` reads; `cluster-leader` tries for the lock every
/// `electionInterval` and, once it holds it, writes. A leader whose session breaks stops its deck
/// at once; the lock went with the session, so another server takes over.
public final class PostgresCluster: DeckCluster {
    /// Advisory lock keys: "SDck" and a number.
    static let migrationLock: Int64 = 0x5344_636B_0000_0001
    static let leaderLock: Int64 = 0x5344_636B_0000_0002

    public struct Configuration: Sendable {
        /// How often a server that does not lead tries for the lock, and a leader checks its
        /// session when it has nothing to write.
        public var electionInterval: Duration = .seconds(1)
        /// Events a server loads into its stream history when it joins.
        public var heldEvents = 4_096
        /// Events the leader keeps in the store; a server cut off for longer reloads every panel.
        public var keptEvents = 10_000
        /// How long joining waits for a leader to have written the deck.
        public var joinTimeout: Duration = .seconds(10)
        /// How long an action sent to a server that does not lead waits for the leader's answer.
        public var actionTimeout: Duration = .seconds(10)
        /// How long a leader cut off from the store (a partition, a frozen proxy) goes on: the
        /// server ends its session, freeing the lock, once it hears nothing from it for this
        /// long, and the leader stops its deck once a call to the store has not returned by then.
        /// Another server then leads within an election interval.
        public var partitionTimeout: Duration = .seconds(6)

        public init() {}
    }

    public let configuration: Configuration
    private let url: String
    private let log = ClusterLog()
    private let actions: ClusterActions
    private let logger: Logger
    private let stopping = Locked(false)
    /// Set when this server is to let go of the lead: the leader's thread does it next.
    private let resigning = Locked(false)
    /// 1 once the replica holds the deck as the store has it.
    private let hasDeck = Watermark()
    /// The newest event the feed handed to the replica.
    private let replicated = Watermark()
    /// Written once at `leave()`: its read end wakes the feed's wait.
    private let wake: (read: Int32, write: Int32)
    /// Signalled by each thread as it ends.
    private let ended = DispatchSemaphore(value: 0)
    private let running = Locked(0)
    /// How many times this server tried for the leader's lock and found another server holding
    /// it: what shows that a server which does not lead has tried to.
    public let electionsLost = Watermark()

    public var relay: any EventRelay { log }

    /// Connects once to check the store and bring its tables to this version.
    ///
    /// - Throws: ``ClusterError`` when PostgreSQL cannot be reached or its tables are newer.
    public init(url: String, configuration: Configuration = Configuration(),
                logger: Logger = Logger(label: "statedeck")) throws(ClusterError) {
        self.url = url
        self.configuration = configuration
        self.logger = logger
        actions = ClusterActions(url: url, timeout: configuration.actionTimeout)
        try ClusterSchema.prepare(url)
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        wake = (ends[0], ends[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    public func join(_ member: ClusterMember) async throws {
        let (url, held) = (url, configuration.heldEvents)
        let opened = try await DetachedThread.value { Result { () throws(PostgresError) in try ClusterFeed(url: url, member: member, held: held) } }
        let feed = try opened.mapError { ClusterError.unreachable($0.message) }.get()
        if feed.hasDeck { hasDeck.raise(to: 1) }
        log.export(from: member.server)
        running.withLock { $0 = 2 }
        DetachedThread.run { [self] in runFeed(feed, member: member) }
        DetachedThread.run { [self] in runLeader(member) }
        guard await hasDeck.wait(for: 1, within: configuration.joinTimeout) else {
            throw ClusterError.noDeck(waited: configuration.joinTimeout)
        }
    }

    public func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer? {
        await actions.forward(action)
    }

    public func settled() async -> Bool {
        await log.settled(within: .seconds(2))
    }

    public func resign() {
        resigning.withLock { $0 = true }
        log.wake()
    }

    public func leave() async {
        stopping.withLock { $0 = true }
        _ = write(wake.write, "x", 1)
        log.wake()
        // A takeover waiting for the replica gives up.
        replicated.raise(to: .max)
        let threads = running.current
        let ended = ended
        _ = try? await DetachedThread.value {
            let deadline = DispatchTime.now() + .seconds(1)
            for _ in 0..<threads where ended.wait(timeout: deadline) == .timedOut { break }
        }
    }

    private var isStopping: Bool { stopping.current }

    private func runFeed(_ feed: ClusterFeed, member: ClusterMember) {
        DetachedThread.nameCurrentThread("cluster-feed")
        defer { ended.signal() }
        var shown: PanelError?
        func show(_ trouble: PanelError?) {
            guard trouble != shown else { return }
            shown = trouble
            member.server.showTrouble(trouble)
        }
        var leaderLookedFor = ContinuousClock.now
        while !isStopping {
            do throws(PostgresError) {
                let heard = try feed.follow(waiting: configuration.electionInterval, wake: wake.read)
                if leaderLookedFor.duration(to: .now) >= configuration.electionInterval {
                    leaderLookedFor = .now
                    let someoneLeads = member.isRunningDeck ? true : try feed.someoneLeads()
                    show(someoneLeads ? nil : Self.noLeader)
                }
                if feed.hasDeck { hasDeck.raise(to: 1) }
                replicated.raise(to: feed.lastID)
                let answers = heard.filter { $0.channel == ClusterActions.answers }.map(\.payload)
                if !answers.isEmpty { Task { [actions] in await actions.heard(answers: answers) } }
                // Requests are also looked for on every wakeup: one sent before this server led
                // was heard by nobody.
                if member.isRunningDeck { Task { [actions] in await actions.performPending(on: member) } }
            } catch {
                logger.error("cluster: reading the store failed (\(error)); trying again")
                show(Self.trouble(error))
                while !isStopping, (try? feed.reconnect()) == nil { pause() }
                show(nil)
            }
        }
    }

    private func runLeader(_ member: ClusterMember) {
        DetachedThread.nameCurrentThread("cluster-leader")
        defer { ended.signal() }
        var leader: ClusterLeader?
        var lastCheck = ContinuousClock.now
        var lastTrim = ContinuousClock.now
        /// Leadership changes reach the server in the order they happened.
        var handover: Task<Void, Never>?
        func setLeading(_ leads: Bool) {
            log.setAccepting(leads)
            handover = Task { [previous = handover, resigning] in
                await previous?.value
                if await !member.setLeading(leads), leads { resigning.withLock { $0 = true } }
            }
        }
        while !isStopping {
            if resigning.withLock({ resigning in defer { resigning = false }; return resigning }), leader != nil {
                // The lock goes with the session; the others elect among themselves meanwhile.
                logger.warning("cluster: letting go of the lead")
                leader = nil
                setLeading(false)
                pause()
                continue
            }
            guard let current = leader else {
                // Each new session checks the tables first: a store restored from a backup, or
                // made anew, gets them again.
                var taken: ClusterLeader?
                if let session = try? PostgresConnection(url), (try? ClusterSchema.migrate(session)) != nil {
                    do {
                        taken = try ClusterLeader(session: session, keptEvents: configuration.keptEvents,
                                                  partitionTimeout: configuration.partitionTimeout)
                        if taken == nil { electionsLost.raise(by: 1) }
                    } catch {}   // tried again after a pause
                }
                if let taken {
                    leader = taken
                    awaitReplica(upTo: taken.newestAtTakeover)
                    setLeading(true)
                } else {
                    pause()
                }
                continue
            }
            let batch = log.take(upTo: ClusterLeader.batchLimit, waiting: .milliseconds(250))
            do {
                if !batch.isEmpty {
                    try current.write(batch)
                    log.settle(batch.count)
                } else if lastCheck.duration(to: .now) >= configuration.electionInterval {
                    try current.check()
                    lastCheck = .now
                }
                if lastTrim.duration(to: .now) >= .seconds(10) {
                    try current.trim()
                    actions.trim()
                    lastTrim = .now
                }
            } catch where error.kind == .connection {
                logger.error("cluster: the leader's session broke (\(error)): stopping the deck's sources here")
                leader = nil
                setLeading(false)
            } catch {
                logger.error("cluster: \(batch.count) events could not be written: \(error)")
                log.settle(batch.count, lost: true)
            }
        }
        // What the deck said before it stopped still reaches the others; then the lock goes.
        if let leader { try? leader.write(log.take(upTo: ClusterLeader.batchLimit, waiting: .zero)) }
    }

    /// Waits (2 s at most) until the replica holds event `id`: the deck starts from what the pages
    /// were shown, so it must have seen what the last leader wrote before it went.
    private func awaitReplica(upTo id: UInt64) {
        _ = replicated.waitBlocking(for: id, within: .seconds(2))
    }

    /// The card a server shows while the store cannot be read.
    static func trouble(_ error: PostgresError) -> PanelError {
        PanelError(
            .unreachable, title: "Can't reach the shared store",
            message: "This page shows the last state this server had: no change can reach it until the "
                + "PostgreSQL store answers again, which this server keeps trying.",
            detail: error.message)
    }

    /// The card a server shows while no server of the cluster leads: the one that did stopped (or
    /// was cut off), and the next takes over within seconds.
    static let noLeader = PanelError(
        .unreachable, title: "No server runs the deck just now",
        message: "The leading process stopped; another takes over within seconds. This page shows the last state "
            + "the deck was in until then, and actions wait for the next leader.")

    /// Waits an election interval, or less when stopping.
    private func pause() {
        var descriptor = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(configuration.electionInterval / .milliseconds(1)))
    }
}
