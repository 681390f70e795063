import StateDeck

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
                map.required("id")?.identifier().flatMap { CommandAction(reading: map, id: $0) }
            }
        }
        ConfigNode.reportReusedIds(zip(elements, actions.map { $0?.id }))
        return actions.compactMap(\.self)
    }

    /// `{ id, label, role, message, run | shell, workingDirectory, environment, timeout }`, its id
    /// already read; `label` may be left out only when there is a `defaultLabel`.
    init?(reading map: ConfigMapping, id: String, defaultLabel: String? = nil) {
        let label = defaultLabel.map { map["label"]?.text() ?? $0 } ?? map.required("label")?.text()
        let role = map["role"]?.choice(of: ActionRole.allCases)
        let message = map["message"]?.text()
        guard let command = CommandSpec(reading: map, timeout: Self.defaultTimeout), let label else {
            return nil
        }
        self.init(id: id, label: label, role: role, message: message, command: command)
    }
}
