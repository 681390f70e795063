import StateDeck

extension Deck {
    /// The targets of the panels' notify entries, then the incidents' targets, each once, in the
    /// order the panels first name them: entries with one ``NotificationTarget/address`` (a webhook's URL and headers, a
    /// command's command line), which gather into one message, are one target, however many
    /// panels name it. The page's desktop notifications are not among them.
    public nonisolated var notifyTargets: [any NotificationTarget] {
        var seen = Set<String>()
        let targets = panelIds.flatMap { notifyDeclarations[$0]?.entries ?? [] }.map(\.target) + configuration.incidentTargets
        return targets.filter { seen.insert($0.address).inserted }
    }
}
