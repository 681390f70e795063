/// An action offered on the items of a panel's list, such as "Remove" or "Restart".
public struct ItemAction: Sendable {
    /// Runs the action on the item with the given id. Returns the panel's new info, or nil to
    /// reload the panel; throws when the action failed.
    public typealias Handler = @Sendable (_ itemId: String) async throws -> Info?

    public let id: String
    public let label: String
    public let role: ActionRole?
    /// The success toast's message, instead of "<label> <item title>: done".
    public let message: String?
    public let handler: Handler

    public init(id: String, label: String, role: ActionRole? = nil, message: String? = nil, handler: @escaping Handler) {
        self.id = id
        self.label = label
        self.role = role
        self.message = message
        self.handler = handler
    }

    /// The button drawn on an item.
    var button: Info.Action {
        Info.Action(id: id, label: label, role: role)
    }
}
