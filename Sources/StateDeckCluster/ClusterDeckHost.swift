import Locking
import Logging
import StateDeck
import StateDeckServer

/// Runs a server's deck as a member of a cluster: only while the cluster says this server leads,
/// on a deck made anew each time (a deck once stopped does not start again); meanwhile the
/// server serves the replica the cluster feeds, and actions go to the leader.
public final class ClusterDeckHost: DeckHost {
    private let cluster: any DeckCluster
    private let makeDeck: @Sendable () async -> Deck
    private let leading = Locked(false)
    private let logger: Logger

    /// A member of `cluster`, which makes the deck to run with `makeDeck` each time it starts to lead.
    public init(cluster: any DeckCluster, makeDeck: @escaping @Sendable () async -> Deck,
                logger: Logger = Logger(label: "statedeck")) {
        self.cluster = cluster
        self.makeDeck = makeDeck
        self.logger = logger
    }

    public var relay: any EventRelay { cluster.relay }

    public var isRunningDeck: Bool { leading.current }

    public func join(_ server: HostedServer) async throws {
        let runner = server.runner
        runner.observeLostHistory { [self] in
            logger.error("another process took the history over: this one no longer leads the cluster")
            cluster.resign()
        }
        try await cluster.join(ClusterMember(
            server: server, leadership: { [self] leads in await setLeading(leads, runner) }, runsDeck: { [leading] in leading.current }))
    }

    /// Runs the deck from now on, or stops it and makes a fresh one for the next time this server
    /// leads. The cluster calls it with one change at a time, in order.
    ///
    /// The server says it leads (it takes actions, and its routes stop forwarding them) only once
    /// its deck is restored and started: an action taken before would be undone by the restore,
    /// though answered. Returns whether it runs the deck: not when its history could not be taken
    /// over, and the cluster then lets another server lead.
    private func setLeading(_ leads: Bool, _ runner: DeckRunner) async -> Bool {
        guard leads != leading.current else { return leads }
        if leads {
            logger.info("leading the cluster: running the deck's sources")
            guard await runner.runTakingOverHistory() else {
                logger.error("cannot take the history over: letting another server lead")
                return false
            }
            leading.withLock { $0 = true }
        } else {
            leading.withLock { $0 = false }
            logger.warning("no longer leading the cluster: the deck's sources stop here")
            await runner.stop(keeping: await makeDeck())
        }
        return leads
    }

    /// The leader's answer, or 503 `no_leader` when none came in time.
    public func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer {
        await cluster.forward(action) ?? .error(503, code: "no_leader",
                                                message: "no server of the cluster runs the deck just now; try again in a few seconds")
    }

    /// Nil once what an action changed is in the store; else 503 `no_leader`: this server lost
    /// the lead first, or the store took longer than 2 s, and the action may not have happened.
    public func settled() async -> ForwardedAction.Answer? {
        guard await !cluster.settled() else { return nil }
        return .error(503, code: "no_leader", message: "what the action changed did not reach the cluster's store in time "
                          + "(this server lost the lead, or the store is slow): it may not have happened; try again")
    }

    public func leave() async {
        await cluster.leave()
    }
}
