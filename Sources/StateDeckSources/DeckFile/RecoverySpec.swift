import StateDeck

/// A button a deck file puts on a panel's error cards: a command, offered on every card or on the
/// cards of some kinds, or a new label (and role) for one of the catalogue's buttons.
///
/// ```yaml
/// recovery:
///   - { id: free-space, run: [sh, -c, "rm -rf /scratch/tmp/*"] }      # Free space, primary, outOfSpace cards
///   - { id: restart, label: Restart, run: [systemctl, restart, api], kinds: [unreachable, timeout] }
///   - { id: try-again, label: Retry now, role: primary }             # the catalogue's retry, relabelled
/// ```
public enum RecoverySpec: Sendable, Hashable {
    /// Runs `action`'s command, on the cards of `kinds` (every card when nil).
    case command(CommandAction, kinds: Set<ErrorKind>?)
    /// The catalogue's retry (`try-again`) with its own label and role.
    case retry(label: String, role: ActionRole)
    /// The catalogue's dismiss (`cancel`) with its own label.
    case dismiss(label: String)

    /// The option's id, unique among the panel's recovery options.
    public var id: String {
        switch self {
        case .command(let action, _): action.id
        case .retry: RecoveryOption.retryId
        case .dismiss: RecoveryOption.dismissId
        }
    }

    /// The command it runs, if it runs one.
    public var action: CommandAction? {
        if case .command(let action, _) = self { action } else { nil }
    }

    /// The core's option; a command's runs with `runner`.
    func recoveryOption(runner: CommandRunner) -> RecoveryOption {
        switch self {
        case .command(let action, let kinds): action.recoveryOption(runner: runner, kinds: kinds)
        case .retry(let label, let role): .retry(label: label, role: role)
        case .dismiss(let label): .dismiss(label: label)
        }
    }
}

extension RecoverySpec {
    /// What `free-space` means when the entry does not say: the button every out-of-space card
    /// knows, so a deck only says what it runs.
    static let freeSpace = (id: "free-space", label: "Free space", role: ActionRole.primary, kinds: Set([ErrorKind.outOfSpace]))

    /// A list of options with unique ids.
    static func list(reading node: ConfigNode) -> [RecoverySpec]? {
        guard let elements = node.list() else { return nil }
        let options = elements.map(RecoverySpec.init(reading:))
        ConfigNode.reportReusedIds(zip(elements, options.map { $0?.id }))
        return options.compactMap(\.self)
    }

    /// `{ id, label, role, message, kinds, run | shell, … }`, or `{ id: try-again | cancel, label, role }`.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: CommandAction.keys + ["kinds"]) else { return nil }
        guard let id = map.required("id")?.identifier() else { return nil }
        switch id {
        case RecoveryOption.retryId, RecoveryOption.dismissId:
            for key in map.present(CommandAction.keys + ["kinds"]) where !["id", "label", "role"].contains(key) {
                map[key]?.problem("\(id) is the catalogue's \(id == RecoveryOption.retryId ? "retry" : "dismiss"), which runs nothing: give it only a label\(id == RecoveryOption.retryId ? " and a role" : "")")
            }
            if id == RecoveryOption.dismissId, map["role"] != nil {
                map["role"]?.problem("cancel is always drawn as the cancel button")
            }
            guard let label = map.required("label")?.text() else { return nil }
            let role = map["role"]?.choice(of: ActionRole.allCases)
            self = id == RecoveryOption.retryId ? .retry(label: label, role: role ?? .primary) : .dismiss(label: label)
        default:
            let isFreeSpace = id == Self.freeSpace.id
            let kinds = map["kinds"].flatMap { $0.list() }.map { nodes in Set(nodes.compactMap { $0.choice(of: ErrorKind.allCases) }) }
            let defaultLabel = isFreeSpace ? Self.freeSpace.label : nil
            guard var action = CommandAction(reading: map, id: id, defaultLabel: defaultLabel) else { return nil }
            if isFreeSpace {
                action.role = action.role ?? Self.freeSpace.role
                self = .command(action, kinds: kinds ?? Self.freeSpace.kinds)
            } else {
                self = .command(action, kinds: kinds)
            }
        }
    }
}
