extension Deck {
    /// The load `ticket` of panel `index` waits for its turn (``LoadProgress``), or got it: the
    /// panel's state says so. A quiet load's state is sent once it shows loading, so a refresh
    /// nobody sees still sends nothing.
    func showWaiting(_ waiting: Bool, index: Int, ticket: Int) {
        guard let load = panels[index].load, load.ticket == ticket, load.waitingForTurn != waiting else { return }
        panels[index].load?.waitingForTurn = waiting
        if !load.quiet { publish(index) }
    }
}
