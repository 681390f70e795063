/// What the simulated deck file declares: the panels it holds and how each is declared (its
/// title, group, dependencies and notify targets). Every edit of it is a reload.
struct SimulatedDeckFile: Sendable, Equatable {
    var present: Set<Int>
    /// The panels whose title was changed.
    var renamed: Set<Int> = []
    /// Whether the panels are in two groups, even and odd.
    var grouped = false
    /// Whether every panel but the first depends on the first (while the first is in the deck).
    var dependent = false
    /// Each panel's `notify:` targets, by number (``SimulatedTarget/names``), in order.
    var targets = [0]

    func title(of panel: Int) -> String {
        renamed.contains(panel) ? "P\(panel) renamed" : "P\(panel)"
    }
}
