import StateDeck

/// Who runs the deck a server serves, when the server is not alone: a cluster, which runs it on
/// one member at a time and feeds every member's replica. The server serves its replica and asks
/// the host where an action goes; who leads is the host's business alone.
public protocol DeckHost: Sendable {
    /// Where the running deck's events go: a store, which numbers them.
    var relay: any EventRelay { get }
    /// From now on runs `server`'s deck (with its ``HostedServer/runner``) whenever this server is
    /// the one to, and feeds its replica; returns once the replica holds the deck.
    func join(_ server: HostedServer) async throws
    /// Whether this server runs the deck now: it takes actions only then.
    var isRunningDeck: Bool { get }
    /// Carries an action this server let in to the server that runs the deck, and returns its
    /// answer; nil when none came in time (no server runs it just now).
    func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer?
    /// Returns once what an action changed would outlive this server (2 s at most).
    func settled() async
    /// Stops running the deck and feeding the replica; returns within a second.
    func leave() async
}

/// What a server hands its ``DeckHost``: the runner of its deck, and the member its cluster sees.
public struct HostedServer: Sendable {
    /// Runs the deck while the host says this server is the one to.
    public let runner: DeckRunner
    let replica: StateMirror
    let perform: @Sendable (ForwardedAction) async -> ForwardedAction.Answer
    let showTrouble: @Sendable (PanelError?) async -> Void

    /// The server as its cluster sees it: a replica to feed, actions to perform while it runs the
    /// deck (`runsDeck`), and leadership to hear of (`leadership`, one change at a time, in order,
    /// answering whether the deck runs).
    public func member(leadership: @escaping @Sendable (Bool) async -> Bool,
                       runsDeck: @escaping @Sendable () -> Bool) -> ClusterMember {
        ClusterMember(replica: replica, leading: runner.source, leadership: leadership, runsDeck: runsDeck,
                      perform: perform, showTrouble: showTrouble)
    }
}
