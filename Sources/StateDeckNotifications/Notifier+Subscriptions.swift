import StateDeck

extension Notifier.Subscription {
    /// The subscriptions of `deck`'s panels, whether declared in a deck file or with the DSL: one
    /// per notify entry, and with `page`, one per panel not set to `none`, by its first entry's
    /// rule or the default rule, that tells the page's desktop notifications.
    public static func all(of deck: Deck, page: (any NotificationTarget)? = nil) -> [Notifier.Subscription] {
        deck.panelIds.flatMap { panel -> [Notifier.Subscription] in
            guard case .entries(let entries) = deck.notifyDeclarations[panel] else { return [] }
            var seen: [String: Int] = [:]
            let told = entries.map { entry in
                let first = Notifier.Subscription(panel: panel, rule: entry.rule, target: entry.target)
                let repeated = seen[first.key, default: 0]
                seen[first.key] = repeated + 1
                return repeated == 0 ? first : Notifier.Subscription(panel: panel, rule: entry.rule, target: entry.target,
                                                                     repeated: repeated)
            }
            guard let page else { return told }
            return told + [.page(panel: panel, rule: entries.first?.rule ?? NotifyRule(), target: page)]
        }
    }
}
