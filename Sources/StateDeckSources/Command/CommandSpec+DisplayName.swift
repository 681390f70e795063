extension CommandSpec {
    /// The command as a person recognises it: the script of a shell command, else the command line.
    var displayName: String {
        let line = arguments.prefix(2) == ["/bin/sh", "-c"] && arguments.count > 2
            ? arguments[2] : arguments.joined(separator: " ")
        return "`\(line.excerpt(limit: 60))`"
    }
}
