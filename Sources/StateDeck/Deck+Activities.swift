extension Deck {
    /// Runs `work` (a recovery handler or an item action) in a task that `stop()` cancels.
    func runActivity(_ work: @escaping @Sendable (isolated Deck) async -> Void) {
        issuedTickets += 1
        let ticket = issuedTickets
        activities[ticket] = Task {
            await work(self)
            self.activities[ticket] = nil
        }
    }
}
