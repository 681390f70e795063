import StateDeck
import StateDeckServer

/// A server as its cluster sees it: a replica to feed (the server's held copy), and a deck to run
/// while it leads.
public final class ClusterMember: Sendable {
    /// What the cluster feeds, reads and asks of the server.
    public let server: HostedServer
    private let leadership: @Sendable (Bool) async -> Bool
    private let runsDeck: @Sendable () -> Bool

    /// `server`, told when it leads with `leadership` (one change at a time, in order, answering
    /// whether the deck runs), and asked whether it runs the deck with `runsDeck`.
    init(server: HostedServer, leadership: @escaping @Sendable (Bool) async -> Bool, runsDeck: @escaping @Sendable () -> Bool) {
        self.server = server
        self.leadership = leadership
        self.runsDeck = runsDeck
    }

    /// Whether this server runs the deck now: only then does it take forwarded actions.
    public var isRunningDeck: Bool { runsDeck() }

    /// Starts running the deck (true) or stops it (false): the store says this server leads, or
    /// no longer does. The deck's first event, once it leads, is a `snapshot`. Returns whether the
    /// deck runs now: a takeover whose history cannot be taken over does not run it.
    @discardableResult
    public func setLeading(_ leads: Bool) async -> Bool {
        await leadership(leads)
    }
}
