extension CommandSource {
    /// `{ run | shell, workingDirectory, environment, timeout, output }`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: CommandSpec.keys + ["output"]) else { return nil }
        let output = map["output"]?.choice(of: OutputFormat.allCases)
        guard let command = CommandSpec(reading: map, timeout: timeout) else { return nil }
        self.init(command: command, output: output ?? .auto)
    }
}
