import StateDeck

/// A command offered as a button: a recovery option on a panel's error cards, or an action on
/// the items of its list.
public struct CommandAction: Sendable, Hashable {
    /// The placeholder that, as a whole argument, stands for the item's id.
    public static let itemPlaceholder = "{item}"
    /// The environment variable holding the item's id.
    public static let itemVariable = "STATEDECK_ITEM_ID"

    /// Unique among the panel's recovery options (or item actions), `[a-z0-9-]+`.
    public var id: String
    /// The button's text.
    public var label: String
    /// How the button is drawn; a recovery option without one is secondary.
    public var role: ActionRole?
    /// The success toast, instead of the core's "<label> <item>: done" (item action) or
    /// "<label>: done" (recovery option).
    public var message: String?
    /// What the button runs.
    public var command: CommandSpec

    /// An action running `command`.
    public init(id: String, label: String, role: ActionRole? = nil, message: String? = nil, command: CommandSpec) {
        self.id = id
        self.label = label
        self.role = role
        self.message = message
        self.command = command
    }

    /// The command run for item `itemId`: each `{item}` argument replaced by the id, and the id
    /// in `STATEDECK_ITEM_ID` (the safe way to reach it from a shell script).
    public func command(forItem itemId: String) -> CommandSpec {
        var command = command
        command.arguments = command.arguments.map { $0 == Self.itemPlaceholder ? itemId : $0 }
        command.environment[Self.itemVariable] = itemId
        return command
    }
}
