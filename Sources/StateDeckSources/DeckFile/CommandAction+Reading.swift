import StateDeck

extension CommandAction {
    /// Where the actions of a list are offered.
    enum Placement {
        case errorCard, items
    }

    /// The ids of the options every error card has.
    static let reservedIds = ["try-again", "cancel"]
    /// How long an action may run when the file does not say.
    static let defaultTimeout = Duration.seconds(30)

    /// A list of actions with unique ids.
    static func list(reading node: ConfigNode, offeredOn placement: Placement) -> [CommandAction]? {
        guard let elements = node.list() else { return nil }
        let actions = elements.map { CommandAction(reading: $0, offeredOn: placement) }
        ConfigNode.reportReusedIds(zip(elements, actions.map { $0?.id }))
        return actions.compactMap(\.self)
    }

    /// `{ id, label, role, message, run | shell, workingDirectory, environment, timeout }`.
    init?(reading node: ConfigNode, offeredOn placement: Placement) {
        let keys = ["id", "label", "role", "message"] + CommandSpec.keys
        guard let map = node.mapping(allowing: keys) else { return nil }
        let id = map.required("id")?.identifier()
        if placement == .errorCard, let id, Self.reservedIds.contains(id) {
            map["id"]?.problem("\(id) is an option every error card already has")
        }
        let label = map.required("label")?.text()
        let role = map["role"]?.choice(of: ActionRole.allCases)
        let message = map["message"]?.text()
        guard let command = CommandSpec(reading: map, timeout: Self.defaultTimeout), let id, let label else {
            return nil
        }
        self.init(id: id, label: label, role: role, message: message, command: command)
    }
}
