import StateDeck

extension Deck {
    /// The targets of the panels' notify entries, each once, in the order the panels first name
    /// them: entries with one ``NotificationTarget/address`` (a webhook's URL and headers, a
    /// command's command line), which gather into one message, are one target, however many
    /// panels name it. The page's desktop notifications are not among them.
    public nonisolated var notifyTargets: [any NotificationTarget] {
        var seen = Set<String>()
        return panelIds.flatMap { notifyDeclarations[$0]?.entries ?? [] }.map(\.target).filter { seen.insert($0.address).inserted }
    }
}
