/// A heading panels are drawn under, with counts of its own: the page's overview folds and filters
/// by group.
public struct PanelGroup: Sendable, Hashable, Encodable {
    /// Unique within a deck; the page's address names collapsed groups by it.
    public let id: String
    /// The heading.
    public var title: String

    /// A group `id` titled `title`, or the id when no title is given.
    public init(_ id: String, title: String? = nil) {
        self.id = id
        self.title = title ?? id
    }
}

/// Panels declared together under one heading, for the ``DeckBuilder`` DSL:
///
/// ```swift
/// Deck("Shop") {
///     Group("payments", title: "Payments") {
///         Panel("stripe", title: "Stripe") { try await stripeHealth() }
///         Panel("ledger", title: "Ledger") { try await ledgerHealth() }
///     }
/// }
/// ```
public struct Group: Sendable {
    /// The group's panels, each with its `group` set.
    public let panels: [Panel]

    /// Declares `panels` as the group `id`, titled `title` (the id when nil).
    public init(_ id: String, title: String? = nil, @DeckBuilder panels: () -> [Panel]) {
        let group = PanelGroup(id, title: title)
        self.panels = panels().map { $0.group(group) }
    }
}
