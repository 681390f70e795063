import StateDeck

/// A command offered as a button: a recovery option on a panel's error cards, or an action on
/// the items of its list.
public struct CommandAction: Sendable, Hashable {
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

    /// The command run for item `itemId`: the id in `STATEDECK_ITEM_ID`, never in an argument
    /// (``CommandPlaceholder``).
    public func command(forItem itemId: String) -> CommandSpec {
        command.giving([.item: itemId])
    }
}

// MARK: - Reading

extension CommandAction {
    /// The keys of an action.
    static let keys = ["id", "label", "role", "message"] + CommandSpec.keys
    /// How long an action may run when the file does not say.
    static let defaultTimeout = Duration.seconds(30)

    /// A list of item actions with unique ids.
    static func list(reading node: ConfigNode) -> [CommandAction]? {
        guard let elements = node.list() else { return nil }
        let actions = elements.map { element in
            element.mapping(allowing: keys).flatMap { map in
                map.required("id")?.identifier().flatMap { CommandAction(reading: map, id: $0, placeholders: [.item]) }
            }
        }
        ConfigNode.reportReusedIds(zip(elements, actions.map { $0?.id }))
        return actions.compactMap(\.self)
    }

    /// `{ id, label, role, message, run | shell, workingDirectory, environment, timeout }`, its id
    /// already read; `label` may be left out only when there is a `defaultLabel`; `placeholders`
    /// are the values its command is handed, in their variables.
    init?(reading map: ConfigMapping, id: String, defaultLabel: String? = nil, placeholders: [CommandPlaceholder] = []) {
        let label = defaultLabel.map { map["label"]?.text() ?? $0 } ?? map.required("label")?.text()
        let role = map["role"]?.choice(of: ActionRole.allCases)
        let message = map["message"]?.text()
        guard let command = CommandSpec(reading: map, timeout: Self.defaultTimeout, placeholders: placeholders),
              let label else {
            return nil
        }
        self.init(id: id, label: label, role: role, message: message, command: command)
    }
}

// MARK: - Buttons

extension CommandAction {
    /// The action as a recovery option of the error cards of `kinds` (every card when nil), a
    /// secondary button unless it says otherwise; the core reloads the panel once it worked.
    func recoveryOption(runner: CommandRunner, kinds: Set<ErrorKind>?) -> RecoveryOption {
        .custom(id, label, role: role ?? .secondary, message: message, kinds: kinds) { [command] in
            try await Self.run(command, with: runner)
        }
    }

    /// The action as an item action; the core reloads the panel once it worked.
    func itemAction(runner: CommandRunner) -> ItemAction {
        ItemAction(id: id, label: label, role: role, message: message) { [self] itemId in
            try await Self.run(command(forItem: itemId), with: runner)
            return nil
        }
    }

    /// Runs `command`; when it fails, the error's title says how, for the core's toast
    /// "<label> failed: <title>".
    private static func run(_ command: CommandSpec, with runner: CommandRunner) async throws {
        let result = try await runner.run(command)
        guard var failure = result.failure(of: command) else { return }
        failure.title = result.outcome(of: command)
        throw failure
    }
}
