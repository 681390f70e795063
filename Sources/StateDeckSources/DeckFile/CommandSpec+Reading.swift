extension CommandSpec {
    static let keys = ["run", "shell", "workingDirectory", "environment", "timeout"]

    /// A command from the keys of `map`: `run` (the program and its arguments) or `shell` (a
    /// script for `sh -c`), and the optional folder (the deck file's by default), environment and
    /// timeout.
    init?(reading map: ConfigMapping, timeout: Duration) {
        let reader = map.node.reader
        let programs = map.present(["run", "shell"])
        if programs.count > 1 {
            map["shell"]?.problem("give either run (a program and its arguments) or shell (a script), not both")
        }
        let arguments: [String]?
        if let run = map["run"] {
            arguments = run.strings()
            if arguments?.isEmpty == true { run.problem("needs at least the program to run") }
        } else if let script = map["shell"]?.text() {
            arguments = CommandSpec.shell(script).arguments
        } else {
            map.node.problem("needs run (a program and its arguments) or shell (a script)")
            arguments = nil
        }
        let folder = map["workingDirectory"]?.text().map(reader.resolve) ?? reader.folder
        let environment = map["environment"]?.entries()?.reduce(into: [String: String]()) { variables, entry in
            variables[entry.key] = entry.value.string()
        }
        let limit = map["timeout"]?.duration() ?? timeout
        guard let arguments, !arguments.isEmpty, programs.count == 1 else { return nil }
        self.init(arguments: arguments, workingDirectory: folder, environment: environment ?? [:], timeout: limit)
    }
}
