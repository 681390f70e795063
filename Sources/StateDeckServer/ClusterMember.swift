import Locking
import StateDeck

/// A server as its cluster sees it: a replica to feed, and a deck to run while it leads.
public final class ClusterMember: Sendable {
    private let replica: StateMirror
    private let leading: StateMirror
    private let leadership: @Sendable (Bool) async -> Bool
    private let runsDeck: @Sendable () -> Bool
    private let performer: @Sendable (ForwardedAction) async -> ForwardedAction.Answer
    private let troubleShower: @Sendable (PanelError?) async -> Void
    /// Trouble and its end reach the pages in the order they happened.
    private let showing = Locked<Task<Void, Never>?>(nil)

    init(replica: StateMirror, leading: StateMirror, leadership: @escaping @Sendable (Bool) async -> Bool,
         runsDeck: @escaping @Sendable () -> Bool,
         perform: @escaping @Sendable (ForwardedAction) async -> ForwardedAction.Answer,
         showTrouble: @escaping @Sendable (PanelError?) async -> Void) {
        self.replica = replica
        self.leading = leading
        self.leadership = leadership
        self.runsDeck = runsDeck
        performer = perform
        troubleShower = showTrouble
    }

    /// Whether this server runs the deck now: only then does it take forwarded actions.
    public var isRunningDeck: Bool { runsDeck() }

    /// Runs an action another server forwarded, through this server's routes (its gate was the
    /// receiving server's).
    public func perform(_ action: ForwardedAction) async -> ForwardedAction.Answer {
        await performer(action)
    }

    /// Holds the deck of `header` and `order` with these panels, in place of anything held.
    public func replicate(header: [UInt8], order: [String], panels: [ReplicatedPanel]) {
        replica.replicate(header: header, order: order, panels: panels)
    }

    /// Updates these panels of the replica.
    public func replicate(_ panels: [ReplicatedPanel]) {
        replica.replicate(panels)
    }

    /// Serves an event the leader made, numbered `id` by the store, to this server's pages.
    /// `afterGap`: events came between the last one served and this one that this server never
    /// read (the store removed them first, or lost them to a restore), so a page from before
    /// them gets a snapshot; otherwise the ids may still jump (a new leader numbers from the time).
    public func replicate(event: String, data: String, id: UInt64, afterGap: Bool) {
        replica.replicate(event: event, data: data, id: id, afterGap: afterGap)
    }

    /// Shows why the pages may be behind on this server's pages (above every panel, and on the
    /// server's own panel): the store cannot be read, or no server leads; nil once that is over.
    /// The pages keep the last state meanwhile.
    public func setTrouble(_ error: PanelError?) {
        showing.withLock { showing in
            showing = Task { [previous = showing, troubleShower] in
                await previous?.value
                await troubleShower(error)
            }
        }
    }

    /// The newest event id this server's pages were sent.
    public var lastEventID: UInt64 { replica.hub.lastEventID }

    /// The running deck's layout (the state document's opening, and the panels' order), while
    /// this server leads.
    public func exportedLayout() -> (header: [UInt8], order: [String]) {
        leading.exportedLayout()
    }

    /// These panels of the running deck, while this server leads.
    public func exportedPanels(_ ids: some Sequence<String>) -> [ReplicatedPanel] {
        leading.exportedPanels(ids)
    }

    /// Starts running the deck (true) or stops it (false): the store says this server leads, or
    /// no longer does. The deck's first event, once it leads, is a `snapshot`. Returns whether the
    /// deck runs now: a takeover whose history cannot be taken over does not run it.
    @discardableResult
    public func setLeading(_ leads: Bool) async -> Bool {
        await leadership(leads)
    }
}
