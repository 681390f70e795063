import StateDeck

extension Notifier.Subscription {
    /// The subscriptions of `deck`'s panels, whether declared in a deck file or with the DSL: one
    /// per notify entry, and with `page`, one per panel not set to `none`, by its first entry's
    /// rule or the default rule, that tells the page's desktop notifications.
    public static func all(of deck: Deck, page: (any NotificationTarget)? = nil) -> [Notifier.Subscription] {
        deck.panelIds.flatMap { panel -> [Notifier.Subscription] in
            guard case .entries(let entries) = deck.notifyDeclarations[panel] else { return [] }
            let told = entries.enumerated().map { index, entry in
                Notifier.Subscription(panel: panel, rule: entry.rule, target: entry.target, index: index)
            }
            guard let page else { return told }
            return told + [Notifier.Subscription(panel: panel, rule: entries.first?.rule ?? NotifyRule(), target: page, index: nil)]
        }
    }
}
