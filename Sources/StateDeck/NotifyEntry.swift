/// One place a panel's outages are told, and the rule they are told by: one entry of a deck
/// file's `notify:` list, or one ``Panel/notify(_:_:)`` of the DSL.
public struct NotifyEntry: Sendable {
    public var target: any NotificationTarget
    public var rule: NotifyRule

    public init(target: any NotificationTarget, rule: NotifyRule = NotifyRule()) {
        self.target = target
        self.rule = rule
    }
}
