import StateDeckServer

/// Several servers sharing one deck through a store: one at a time, the leader, runs the deck;
/// the store numbers each event the leader makes and hands it, with the panels it changed, to
/// every server, which serves it as a replica. So a page may reconnect to any server with
/// `Last-Event-ID`. ``PostgresCluster`` is the store's side; ``ClusterDeckHost`` runs a server's
/// deck while the cluster says it leads.
public protocol DeckCluster: Sendable {
    /// Where the leader's events go: to the store, which numbers them.
    var relay: any EventRelay { get }
    /// Starts feeding `member`'s replica from the store and electing the leader among the members;
    /// returns once the replica holds the deck as the store has it.
    func join(_ member: ClusterMember) async throws
    /// Carries an action sent to this server to the leader, and returns the leader's answer; nil
    /// when none came in time (no server leads just now).
    func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer?
    /// Whether every event relayed so far in this server's lead is in the store, waiting 2 s at
    /// most: an action is answered 2xx only when what it changed would outlive this server.
    func settled() async -> Bool
    /// Lets go of the lead, if this server holds it (its history was taken over by another, or
    /// cannot be): its deck stops, and another server may lead.
    func resign()
    /// Stops leading and feeding; returns within a second.
    func leave() async
}
