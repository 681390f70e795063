import Locking
import StateDeck

/// Who runs the deck a server serves, when the server is not alone: a host may run it here, or
/// elsewhere and hand the server what it shows. The server serves its held copy and asks the host
/// where an action goes; when and where the deck runs is the host's business alone.
public protocol DeckHost: Sendable {
    /// Where the running deck's events go: to the host, which numbers them.
    var relay: any EventRelay { get }
    /// From now on runs `server`'s deck (with its ``HostedServer/runner``) whenever this server is
    /// the one to, and feeds its held copy; returns once the copy holds the deck.
    func join(_ server: HostedServer) async throws
    /// Whether this server runs the deck now: it takes actions only then.
    var isRunningDeck: Bool { get }
    /// Carries an action this server let in to the process that runs the deck, and returns its
    /// answer, or the host's own when none came in time (nothing runs it just now).
    func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer
    /// Nil once what an action changed would outlive this server (2 s at most); else the host's
    /// answer saying why it may not have happened, which the action is answered with instead.
    func settled() async -> ForwardedAction.Answer?
    /// Stops running the deck and feeding the held copy; returns within a second.
    func leave() async
}

/// A server as its ``DeckHost`` sees it: the runner of its deck, the copy it serves of a deck
/// run elsewhere (fed here as the process running the deck exported it), and the actions to
/// perform while the deck runs here.
public struct HostedServer: Sendable {
    /// Runs the deck while the host says this server is the one to.
    public let runner: DeckRunner
    let held: StateMirror
    private let performer: @Sendable (ForwardedAction) async -> ForwardedAction.Answer
    private let troubleShower: @Sendable (PanelError?) async -> Void
    /// Trouble and its end reach the pages in the order they happened.
    private let showing = Locked<Task<Void, Never>?>(nil)

    init(runner: DeckRunner, held: StateMirror, perform: @escaping @Sendable (ForwardedAction) async -> ForwardedAction.Answer,
         showTrouble: @escaping @Sendable (PanelError?) async -> Void) {
        self.runner = runner
        self.held = held
        performer = perform
        troubleShower = showTrouble
    }

    /// Runs an action another server let in, through this server's routes (its gate was the
    /// receiving server's).
    public func perform(_ action: ForwardedAction) async -> ForwardedAction.Answer {
        await performer(action)
    }

    /// Holds the deck of `header` and `order` with these panels, in place of anything held.
    public func hold(header: [UInt8], order: [String], panels: [ExportedPanel]) {
        held.hold(header: header, order: order, panels: panels)
    }

    /// Holds `panels` anew and serves `events`, which the deck made where it runs and the host
    /// numbered, to this server's pages, as one step (``StateMirror/serve(_:afterGap:holding:)``):
    /// `panels` are as of the last of them. `afterGap`: events came between the last one served
    /// and the first of these that this server never got, so a page from before them gets a
    /// snapshot; otherwise the ids may still jump.
    public func serve(_ events: [HeldEvent], afterGap: Bool, holding panels: HeldPanels?) {
        held.serve(events, afterGap: afterGap, holding: panels)
    }

    /// Serves one event that changes no panel, as ``serve(_:afterGap:holding:)`` does.
    public func serve(event: String, data: String, id: UInt64, afterGap: Bool) {
        serve([HeldEvent(event: event, data: data, id: id)], afterGap: afterGap, holding: nil)
    }

    /// Shows why the pages may be behind (above every panel, and on the server's own panel), or
    /// nil once that is over; the pages keep the last state meanwhile.
    public func showTrouble(_ error: PanelError?) {
        showing.withLock { showing in
            showing = Task { [previous = showing, troubleShower] in
                await previous?.value
                await troubleShower(error)
            }
        }
    }

    /// The running deck's layout (the state document's opening, and the panels' order), while
    /// the deck runs here.
    public func exportedLayout() -> (header: [UInt8], order: [String]) {
        runner.source.exportedLayout()
    }

    /// These panels of the running deck, while it runs here.
    public func exportedPanels(_ ids: some Sequence<String>) -> [ExportedPanel] {
        runner.source.exportedPanels(ids)
    }

    /// The running deck's notice, maintenance and incidents, while the deck runs here.
    public func exportedDeckParts() -> ExportedDeckParts {
        runner.source.exportedDeckParts()
    }

    /// The running deck's state document around its `lastEventId`, while the deck runs here.
    public func exportedDocument() -> (beforeID: [UInt8], afterID: [UInt8]) {
        runner.source.documentParts()
    }
}
