extension Deck {
    /// The load `ticket` of panel `index`, shown as loading, started or stopped waiting for its
    /// turn (``TurnWait``): the panel's state says so. A quiet load's wait is sent once it shows
    /// loading, so a refresh nobody sees still sends nothing.
    func showWaiting(index: Int, ticket: Int) {
        guard panels[index].load?.ticket == ticket else { return }
        publish(index)
    }
}
