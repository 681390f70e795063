import Locking
import StateDeck

/// The demo's simulated Postgres as the panels that depend on it see it: down exactly while its
/// panel shows an error, whether its scripted outage or a state forced with the debug tools put
/// it there, so that what a dependent fails because of is what the page shows. When that changes
/// the deck checks the dependents again at once, not at their next refresh.
final class DemoDatabase: Sendable {
    private struct Reach {
        var isUp = true
        weak var deck: Deck?
    }

    /// The ids of the panels that depend on it.
    let dependents: [String]
    private let reach = Locked(Reach())

    init(dependents: [String]) {
        self.dependents = dependents
    }

    /// The deck whose dependents are checked again when the database comes or goes.
    func serve(_ deck: Deck) {
        reach.withLock { $0.deck = deck }
    }

    /// What Postgres's panel just showed: info (up) or an error (down).
    func panelShows(up: Bool) {
        let deck: Deck? = reach.withLock { reach in
            guard reach.isUp != up else { return nil }
            reach.isUp = up
            return reach.deck
        }
        guard let deck else { return }
        Task { [dependents] in
            for id in dependents { try? await deck.refresh(panel: id) }
        }
    }

    /// A dependent's query: throws `failure` while the database is down.
    func query(failing failure: @autoclosure () -> PanelError) throws(PanelError) {
        guard reach.current.isUp else { throw failure() }
    }
}
