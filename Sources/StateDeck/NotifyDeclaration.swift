/// What a panel declares about notifications: its entries (none by default), or `none`.
///
/// Every panel not set to `none` is also told to the page's desktop notifications, by its first
/// entry's rule, or by the default ``NotifyRule`` when it has no entries: the page needs no
/// configuration. `none` turns off the entries and the page alike.
public enum NotifyDeclaration<Entry: Sendable>: Sendable {
    /// Each entry's target is told by the entry's rule.
    case entries([Entry])
    /// Nothing is told, not even to the page (`notify: none`).
    case none

    /// The entries; none for `none`.
    public var entries: [Entry] {
        if case .entries(let entries) = self { entries } else { [] }
    }

    /// The same declaration with each entry transformed.
    public func map<Other>(_ transform: (Entry) -> Other) -> NotifyDeclaration<Other> {
        switch self {
        case .entries(let entries): .entries(entries.map(transform))
        case .none: .none
        }
    }
}

extension NotifyDeclaration: Equatable where Entry: Equatable {}
extension NotifyDeclaration: Hashable where Entry: Hashable {}
