import StateDeck

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
